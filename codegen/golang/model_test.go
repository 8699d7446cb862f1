package golang

import (
	"encoding/json"

	"github.com/gramc-dev/gramc/check"
)

// weatherModel builds, by hand, the checked model of
// testdata/examples/weather.gram, so the generator can be tested without
// the checker.
func weatherModel() *check.Package {
	num := func(s string) *json.Number { n := json.Number(s); return &n }
	i64 := func(v int64) *int64 { return &v }
	unit := &check.Enum{Name: "Unit", Description: "Temperature unit", ValueKind: check.String, Values: []any{"celsius", "fahrenheit"}}
	coords := &check.TypeDecl{Name: "Coordinates", Description: "A point on Earth", Fields: []*check.Param{
		{Name: "latitude", Type: &check.Type{Kind: check.Number}, Constraints: &check.Constraints{Minimum: num("-90"), Maximum: num("90")}},
		{Name: "longitude", Type: &check.Type{Kind: check.Number}, Constraints: &check.Constraints{Minimum: num("-180"), Maximum: num("180")}},
	}}
	report := &check.TypeDecl{Name: "WeatherReport", Description: "A weather observation", Fields: []*check.Param{
		{Name: "temperature", Type: &check.Type{Kind: check.Number}, Description: "Temperature in the requested unit"},
		{Name: "conditions", Type: &check.Type{Kind: check.String}, Description: "Short description, e.g. light rain"},
		{Name: "humidity", Type: &check.Type{Kind: check.Integer}, Description: "Relative humidity in percent", Constraints: &check.Constraints{Minimum: num("0"), Maximum: num("100")}},
		{Name: "position", Type: &check.Type{Kind: check.Record, Decl: coords}},
	}}
	city := &check.Param{Name: "city", Type: &check.Type{Kind: check.String}, Description: "City name, e.g. Paris", Constraints: &check.Constraints{MinLength: i64(1)}}
	unitParam := &check.Param{Name: "unit", Type: &check.Type{Kind: check.EnumKind, Enum: unit}, Default: "celsius", HasDefault: true, Optional: true}
	getWeather := &check.Tool{Name: "getWeather", Description: "Current weather for a city",
		Params:    []*check.Param{city, unitParam},
		Result:    &check.Type{Kind: check.Record, Decl: report},
		Signature: `(city::String {description: "City name, e.g. Paris", minLength: 1})==>(unit::Unit {default: "celsius"})==>(::WeatherReport)`,
	}
	getForecast := &check.Tool{Name: "getForecast", Description: "Daily forecast for the next days",
		Params: []*check.Param{city,
			{Name: "days", Type: &check.Type{Kind: check.Integer}, Default: json.Number("3"), HasDefault: true, Optional: true, Constraints: &check.Constraints{Minimum: num("1"), Maximum: num("14")}},
			unitParam},
		Result:    &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.Record, Decl: report}},
		Signature: `(city::String {description: "City name, e.g. Paris", minLength: 1})==>(days::Integer {range: 1..14, default: 3})==>(unit::Unit {default: "celsius"})==>(::Array {elementType: WeatherReport})`,
	}
	temp := 0.2
	agent := &check.Agent{Name: "weather_agent", Description: "Answers questions about the weather",
		Instruction: "You answer questions about the weather.\n", Model: "OpenAI/gpt-4o-mini", Provider: "OpenAI", ModelName: "gpt-4o-mini",
		Temperature: &temp, MaxIterations: 6, Tools: []*check.Tool{getWeather, getForecast}}
	return &check.Package{Name: "weather", Tools: []*check.Tool{getWeather, getForecast}, Agents: []*check.Agent{agent},
		Types: []*check.TypeDecl{coords, report}, Enums: []*check.Enum{unit}}
}
