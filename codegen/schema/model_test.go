package schema

import (
	"encoding/json"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
)

// Hand-built models: the emitters are tested on these independently of the
// checker (the golden tests run the same checks over real gram sources).

// rng is a fake one-line range at line:col of file.
func rng(file string, line, col, width int) ast.Range {
	off := line*100 + col
	return ast.Range{File: file, Start: ast.Pos{Offset: int32(off), Line: int32(line), Column: int32(col)}, End: ast.Pos{Offset: int32(off + width), Line: int32(line), Column: int32(col + width)}}
}

func num(s string) *json.Number { n := json.Number(s); return &n }
func i64(n int64) *int64        { return &n }

// weatherModel mirrors testdata/examples/weather.gram.
func weatherModel() *check.Package {
	const f = "weather.gram"
	unit := &check.Enum{Name: "Unit", Description: "Temperature unit", ValueKind: check.String,
		Values: []any{"celsius", "fahrenheit"}, NameRange: rng(f, 5, 2, 4)}
	coords := &check.TypeDecl{Name: "Coordinates", Description: "A point on Earth", NameRange: rng(f, 7, 2, 11)}
	coords.Fields = []*check.Param{
		{Name: "latitude", Type: &check.Type{Kind: check.Number}, Constraints: &check.Constraints{Minimum: num("-90"), Maximum: num("90")}, Range: rng(f, 8, 3, 30), NameRange: rng(f, 8, 4, 8)},
		{Name: "longitude", Type: &check.Type{Kind: check.Number}, Constraints: &check.Constraints{Minimum: num("-180"), Maximum: num("180")}, Range: rng(f, 9, 3, 30), NameRange: rng(f, 9, 4, 9)},
	}
	report := &check.TypeDecl{Name: "WeatherReport", Description: "A weather observation", NameRange: rng(f, 12, 2, 13)}
	report.Fields = []*check.Param{
		{Name: "temperature", Type: &check.Type{Kind: check.Number}, Description: "Temperature in the requested unit", Range: rng(f, 13, 3, 30)},
		{Name: "conditions", Type: &check.Type{Kind: check.String}, Description: "Short description, e.g. light rain", Range: rng(f, 14, 3, 30)},
		{Name: "humidity", Type: &check.Type{Kind: check.Integer}, Description: "Relative humidity in percent", Constraints: &check.Constraints{Minimum: num("0"), Maximum: num("100")}, Range: rng(f, 15, 3, 30)},
		{Name: "position", Type: &check.Type{Kind: check.Record, Decl: coords}, Range: rng(f, 16, 3, 30)},
	}
	city := func(line int) *check.Param {
		return &check.Param{Name: "city", Type: &check.Type{Kind: check.String}, Description: "City name, e.g. Paris",
			Constraints: &check.Constraints{MinLength: i64(1)}, Range: rng(f, line, 3, 50), NameRange: rng(f, line, 4, 4)}
	}
	unitParam := func(line int) *check.Param {
		return &check.Param{Name: "unit", Type: &check.Type{Kind: check.EnumKind, Enum: unit}, Default: "celsius", HasDefault: true, Optional: true,
			Range: rng(f, line, 3, 30), NameRange: rng(f, line, 4, 4)}
	}
	getWeather := &check.Tool{Name: "getWeather", Description: "Current weather for a city",
		Params: []*check.Param{city(20), unitParam(21)}, Result: &check.Type{Kind: check.Record, Decl: report},
		NameRange: rng(f, 19, 2, 10)}
	getForecast := &check.Tool{Name: "getForecast", Description: "Daily forecast for the next days",
		Params: []*check.Param{city(26), {Name: "days", Type: &check.Type{Kind: check.Integer}, Default: json.Number("3"), HasDefault: true, Optional: true,
			Constraints: &check.Constraints{Minimum: num("1"), Maximum: num("14")}, Range: rng(f, 27, 3, 30), NameRange: rng(f, 27, 4, 4)}, unitParam(28)},
		Result:    &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.Record, Decl: report}},
		NameRange: rng(f, 25, 2, 11)}
	return &check.Package{Name: "weather", Tools: []*check.Tool{getWeather, getForecast},
		Types: []*check.TypeDecl{coords, report}, Enums: []*check.Enum{unit},
		Agents: []*check.Agent{{Name: "weather_agent", Tools: []*check.Tool{getWeather, getForecast}}}}
}

// kitchenModel uses every keyword, a recursive type, a free-form object,
// an integer enum, examples and deprecation, and a strict tool.
func kitchenModel() *check.Package {
	const f = "kitchen.gram"
	tr := true
	level := &check.Enum{Name: "Level", Description: "Log level", ValueKind: check.Integer,
		Values: []any{json.Number("1"), json.Number("2"), json.Number("3")}, NameRange: rng(f, 1, 2, 5)}
	comment := &check.TypeDecl{Name: "Comment", Description: "A comment and its replies", NameRange: rng(f, 3, 2, 7)}
	comment.Fields = []*check.Param{
		{Name: "text", Type: &check.Type{Kind: check.String}, Range: rng(f, 4, 3, 20), NameRange: rng(f, 4, 4, 4)},
		{Name: "replies", Type: &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.Record, Decl: comment}}, Optional: true, Range: rng(f, 5, 3, 20), NameRange: rng(f, 5, 4, 7)},
	}
	search := &check.Tool{Name: "search", Title: "Search", Description: "Searches <things> & more",
		Params: []*check.Param{
			{Name: "query", Type: &check.Type{Kind: check.String}, Description: "What to look for", Examples: []any{"rain in Paris"},
				Constraints: &check.Constraints{MinLength: i64(1), MaxLength: i64(200), Pattern: "^[^\\n]+$"}, Range: rng(f, 10, 3, 40), NameRange: rng(f, 10, 4, 5)},
			{Name: "since", Type: &check.Type{Kind: check.String}, Optional: true, Constraints: &check.Constraints{Format: "date-time"}, Range: rng(f, 11, 3, 40), NameRange: rng(f, 11, 4, 5)},
			{Name: "site", Type: &check.Type{Kind: check.String}, Optional: true, Constraints: &check.Constraints{Format: "uri"}, Range: rng(f, 12, 3, 40), NameRange: rng(f, 12, 4, 4)},
			{Name: "score", Type: &check.Type{Kind: check.Number}, Default: json.Number("0.5"), HasDefault: true, Optional: true,
				Constraints: &check.Constraints{ExclusiveMinimum: num("0"), ExclusiveMaximum: num("1")}, Range: rng(f, 13, 3, 40), NameRange: rng(f, 13, 4, 5)},
			{Name: "sort", Type: &check.Type{Kind: check.String}, Default: "relevance", HasDefault: true, Optional: true,
				Constraints: &check.Constraints{Enum: []any{"relevance", "date"}}, Range: rng(f, 14, 3, 40), NameRange: rng(f, 14, 4, 4)},
			{Name: "pageSize", Type: &check.Type{Kind: check.Integer}, Deprecated: true, Optional: true,
				Constraints: &check.Constraints{Enum: []any{json.Number("10"), json.Number("20")}}, Range: rng(f, 15, 3, 40), NameRange: rng(f, 15, 4, 8)},
			{Name: "tags", Type: &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.String}}, Default: []any{"news"}, HasDefault: true, Optional: true,
				Constraints: &check.Constraints{MinItems: i64(1), MaxItems: i64(5), UniqueItems: true}, Range: rng(f, 16, 3, 40), NameRange: rng(f, 16, 4, 4)},
			{Name: "level", Type: &check.Type{Kind: check.EnumKind, Enum: level}, Description: "Minimum level", Range: rng(f, 17, 3, 40), NameRange: rng(f, 17, 4, 5)},
			{Name: "exact", Type: &check.Type{Kind: check.Boolean}, Default: false, HasDefault: true, Optional: true, Range: rng(f, 18, 3, 40), NameRange: rng(f, 18, 4, 5)},
		},
		Result: &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.String}}, ResultDescription: "Matching titles",
		NameRange: rng(f, 9, 2, 6)}
	thread := &check.Tool{Name: "postThread", Description: "Posts a comment thread", Strict: &tr,
		Params: []*check.Param{
			{Name: "root", Type: &check.Type{Kind: check.Record, Decl: comment}, Description: "The first comment", Range: rng(f, 21, 3, 30), NameRange: rng(f, 21, 4, 4)},
			{Name: "notify", Type: &check.Type{Kind: check.Record, Decl: comment}, Optional: true, Range: rng(f, 22, 3, 30), NameRange: rng(f, 22, 4, 6)},
		},
		Result: &check.Type{Kind: check.Record, Decl: comment}, NameRange: rng(f, 20, 2, 10)}
	ping := &check.Tool{Name: "ping", Description: "Checks the service is up", Result: &check.Type{Kind: check.Boolean}, NameRange: rng(f, 25, 2, 4)}
	blob := &check.Tool{Name: "store-blob.v2", Description: "Stores a free-form object",
		Params: []*check.Param{{Name: "data", Type: &check.Type{Kind: check.Object}, Range: rng(f, 28, 3, 20), NameRange: rng(f, 28, 4, 4)},
			{Name: "content-type", Type: &check.Type{Kind: check.String}, Optional: true, Range: rng(f, 29, 3, 20), NameRange: rng(f, 29, 4, 12)}},
		Result: &check.Type{Kind: check.Object}, NameRange: rng(f, 27, 2, 13)}
	return &check.Package{Name: "kitchen", Tools: []*check.Tool{search, thread, ping, blob},
		Types: []*check.TypeDecl{comment}, Enums: []*check.Enum{level}}
}
