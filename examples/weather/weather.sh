#!/bin/sh
# weather.sh TOOL: a stand-in weather service for the weather agent's tools,
# bound with `gramc run --tool 'TOOL=examples/weather/weather.sh TOOL'`.
# gramc writes the validated arguments (defaults applied) as a JSON object on
# standard input; what this prints on standard output is the tool's result.
# A real service would call a weather API here.
args=$(cat)
report='{"temperature": 14, "conditions": "light rain", "humidity": 82,
  "position": {"latitude": 48.86, "longitude": 2.35}, "observedAt": "2026-11-22T09:00:00Z"}'
case "$1" in
getWeather) echo "$report" ;;
getForecast) echo "[$report, $report, $report]" ;;
getAlerts) echo '[{"headline": "Heavy rain this evening", "severity": 2}]' ;;
convertTemperature)
  # {"value": 14, "unit": "fahrenheit"} -> 57.2
  value=$(printf '%s' "$args" | sed -n 's/.*"value": *\([-0-9.eE+]*\).*/\1/p')
  case "$args" in
  *fahrenheit*) awk -v v="$value" 'BEGIN { print v * 9 / 5 + 32 }' ;;
  *) awk -v v="$value" 'BEGIN { print (v - 32) * 5 / 9 }' ;;
  esac ;;
*) echo "weather.sh: unknown tool $1" >&2; exit 2 ;;
esac
