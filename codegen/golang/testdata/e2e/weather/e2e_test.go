package weather

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"

	"gramctest/e2e/e2etest"
)

// station is a typed implementation of Tools that records what it was
// called with.
type station struct {
	mu       sync.Mutex
	weather  []GetWeatherArgs
	forecast []GetForecastArgs
}

func (s *station) GetWeather(ctx context.Context, args GetWeatherArgs) (GetWeatherResult, error) {
	s.mu.Lock()
	s.weather = append(s.weather, args)
	s.mu.Unlock()
	if args.City == "Atlantis" {
		return WeatherReport{}, errors.New("no station in Atlantis")
	}
	t := 21.5
	if args.Unit == UnitFahrenheit {
		t = 70.7
	}
	return WeatherReport{Temperature: t, Conditions: "sunny in " + args.City, Humidity: 40, Position: Coordinates{Latitude: 48.85, Longitude: 2.35}}, nil
}

func (s *station) GetForecast(ctx context.Context, args GetForecastArgs) (GetForecastResult, error) {
	s.mu.Lock()
	s.forecast = append(s.forecast, args)
	s.mu.Unlock()
	out := make([]WeatherReport, args.Days)
	for i := range out {
		out[i] = WeatherReport{Temperature: float64(i), Conditions: string(args.Unit)}
	}
	return out, nil
}

// TestEndToEnd runs the generated weather agent through runtime.Run and the
// OpenAI client against the fake OpenAI server: valid calls reach the
// typed implementation with defaults filled in; invalid arguments never
// do; a tool error is reported to the model, not raised.
func TestEndToEnd(t *testing.T) {
	impl := &station{}
	resp, srv := e2etest.Run(t, NewWeatherAgent(), NewToolLibrary(impl), "What's the weather in Paris?",
		runtimetest.ToolCallsReply(
			runtimetest.FakeCall{Name: "getWeather", Arguments: `{"city":"Paris"}`},
			runtimetest.FakeCall{Name: "getForecast", Arguments: `{"city":"Oslo","days":2.0,"unit":"fahrenheit"}`},
			runtimetest.FakeCall{Name: "getForecast", Arguments: `{"city":"Rome"}`},
			// Invalid: empty city, unknown unit, days out of range, wrong
			// type, unknown property, missing required city.
			runtimetest.FakeCall{Name: "getWeather", Arguments: `{"city":""}`},
			runtimetest.FakeCall{Name: "getWeather", Arguments: `{"city":"Paris","unit":"kelvin"}`},
			runtimetest.FakeCall{Name: "getForecast", Arguments: `{"city":"Rome","days":99}`},
			runtimetest.FakeCall{Name: "getForecast", Arguments: `{"city":"Rome","days":"three"}`},
			runtimetest.FakeCall{Name: "getWeather", Arguments: `{"city":"Paris","country":"FR"}`},
			runtimetest.FakeCall{Name: "getWeather", Arguments: `{}`},
			// Valid, but the implementation fails.
			runtimetest.FakeCall{Name: "getWeather", Arguments: `{"city":"Atlantis"}`},
		),
		runtimetest.TextReply("It is sunny in Paris."),
	)
	if resp.Content != "It is sunny in Paris." {
		t.Errorf("content = %q", resp.Content)
	}

	// Only the valid calls reached the implementation, typed and with
	// defaults applied (unit celsius, days 3; 2.0 decoded as 2).
	// Tools may run concurrently: compare in a fixed order.
	sort.Slice(impl.weather, func(i, j int) bool { return impl.weather[i].City < impl.weather[j].City })
	sort.Slice(impl.forecast, func(i, j int) bool { return impl.forecast[i].City < impl.forecast[j].City })
	wantWeather := []GetWeatherArgs{{City: "Atlantis", Unit: UnitCelsius}, {City: "Paris", Unit: UnitCelsius}}
	wantForecast := []GetForecastArgs{{City: "Oslo", Days: 2, Unit: UnitFahrenheit}, {City: "Rome", Days: 3, Unit: UnitCelsius}}
	if !reflect.DeepEqual(impl.weather, wantWeather) {
		t.Errorf("getWeather received %+v, want %+v", impl.weather, wantWeather)
	}
	if !reflect.DeepEqual(impl.forecast, wantForecast) {
		t.Errorf("getForecast received %+v, want %+v", impl.forecast, wantForecast)
	}

	if len(resp.Invocations) != 10 {
		t.Fatalf("%d invocations, want 10", len(resp.Invocations))
	}
	for i, inv := range resp.Invocations {
		wantErr := i >= 3
		if (inv.Err != nil) != wantErr {
			t.Errorf("invocation %d (%s %s): err = %v, want error: %v", i, inv.Tool, inv.Args, inv.Err, wantErr)
		}
	}
	// The typed result was encoded as JSON for the model.
	var report WeatherReport
	if err := json.Unmarshal([]byte(resp.Invocations[0].Result), &report); err != nil || report.Conditions != "sunny in Paris" || report.Position.Latitude != 48.85 {
		t.Errorf("getWeather result %q: %+v, %v", resp.Invocations[0].Result, report, err)
	}
	var days []WeatherReport
	if err := json.Unmarshal([]byte(resp.Invocations[2].Result), &days); err != nil || len(days) != 3 {
		t.Errorf("getForecast result %q: %v", resp.Invocations[2].Result, err)
	}
	if inv := resp.Invocations[9]; inv.Err == nil || !strings.Contains(inv.Err.Error(), "no station in Atlantis") {
		t.Errorf("failing tool: err = %v", inv.Err)
	}

	// The model was offered exactly the generated specifications.
	reqs := srv.Chats()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if got := reqs[0].ToolNames(); !reflect.DeepEqual(got, []string{"getWeather", "getForecast"}) {
		t.Errorf("tools offered: %v", got)
	}
}

// TestSpecsMatchSchema checks that the embedded schemas are exactly what
// the schema package emits for the checked source.
func TestSpecsMatchSchema(t *testing.T) {
	pkgs, diags, err := load.Packages([]string{"weather.gram"}, nil)
	if err != nil || diags.HasErrors() || len(pkgs) != 1 {
		t.Fatalf("load: %v %v", err, diags)
	}
	specs := map[string]runtime.ToolSpecification{"getWeather": GetWeatherSpec, "getForecast": GetForecastSpec}
	for _, tool := range pkgs[0].Tools {
		spec, ok := specs[tool.Name]
		if !ok {
			t.Errorf("no generated spec for %s", tool.Name)
			continue
		}
		params, err := schema.Parameters(tool)
		if err != nil {
			t.Fatal(err)
		}
		output, err := schema.Output(tool)
		if err != nil {
			t.Fatal(err)
		}
		if string(spec.Schema) != string(params) {
			t.Errorf("%s: Schema\n got %s\nwant %s", tool.Name, spec.Schema, params)
		}
		if string(spec.OutputSchema) != string(output) {
			t.Errorf("%s: OutputSchema\n got %s\nwant %s", tool.Name, spec.OutputSchema, output)
		}
		if spec.Name != tool.Name || spec.Description != tool.Description || spec.Signature != tool.Signature {
			t.Errorf("%s: spec %+v does not match the tool", tool.Name, spec)
		}
	}
	agent := NewWeatherAgent()
	a := pkgs[0].Agents[0]
	if agent.Name != a.Name || agent.Model != a.Model || agent.Instruction != a.Instruction || agent.MaxIterations != a.MaxIterations || *agent.Temperature != *a.Temperature {
		t.Errorf("agent %s does not match the checked one (instruction %q, model %q)", jsonOf(agent), a.Instruction, a.Model)
	}
}

// TestEnumValid covers the generated Valid method.
func TestEnumValid(t *testing.T) {
	if !UnitCelsius.Valid() || !Unit("fahrenheit").Valid() || Unit("kelvin").Valid() {
		t.Error("Unit.Valid is wrong")
	}
}

// TestDefaultsThroughRuntime calls a generated tool through the runtime
// (runtime.Bind and Call, as Run and gramc mcp call it): absent and null
// arguments get their defaults from the schema, and 2.0 decodes as an
// integer.
func TestDefaultsThroughRuntime(t *testing.T) {
	var got GetForecastArgs
	tool := NewGetForecastTool(func(ctx context.Context, args GetForecastArgs) (GetForecastResult, error) {
		got = args
		return nil, nil
	})
	bound, err := runtime.Bind(runtime.Agent{Name: "a", Tools: []runtime.ToolSpecification{tool.Spec}}, runtime.NewToolLibrary(tool))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		raw  string
		want GetForecastArgs
	}{
		{`{"city":"Oslo"}`, GetForecastArgs{City: "Oslo", Days: 3, Unit: UnitCelsius}},
		{`{"city":"Oslo","days":null,"unit":null}`, GetForecastArgs{City: "Oslo", Days: 3, Unit: UnitCelsius}},
		{`{"city":"Oslo","days":5.0,"unit":"fahrenheit"}`, GetForecastArgs{City: "Oslo", Days: 5, Unit: UnitFahrenheit}},
	} {
		got = GetForecastArgs{}
		inv := bound.Call(context.Background(), runtime.ToolCall{ID: "1", Name: tool.Spec.Name, Arguments: tc.raw})
		if inv.Err != nil {
			t.Errorf("%s: %v", tc.raw, inv.Err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s: fn got %+v, want %+v", tc.raw, got, tc.want)
		}
		// A nil slice result is sent as an empty array.
		if inv.Result != "[]" {
			t.Errorf("%s: result %#v, want []", tc.raw, inv.Result)
		}
	}
	if _, err := tool.Func(context.Background(), json.RawMessage(`{"city":`)); err == nil {
		t.Error("malformed arguments: want an error")
	}
}

// TestBindsToLoadedAgent binds the generated library to the agent loaded
// from the .gram file at run time: the specs match, so gram-defined agents
// run on typed Go implementations.
func TestBindsToLoadedAgent(t *testing.T) {
	agent, err := gramfile.LoadAgent("weather.gram", "weather_agent")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runtime.Bind(agent, NewToolLibrary(&station{})); err != nil {
		t.Fatalf("binding the loaded agent to the generated library: %v", err)
	}
	if got, want := jsonOf(NewWeatherAgent()), jsonOf(agent); got != want {
		t.Errorf("generated agent differs from the loaded one:\n%s\n%s", got, want)
	}
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
