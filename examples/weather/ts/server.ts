// A TypeScript MCP server for the weather tools, on the code gramc
// generates into gen/ (npm run gen: gramc gen --lang ts -o gen ..; not committed):
// the tools' types, their Zod schemas and registerTools come from gen/; this
// file is the few lines of implementation. Arguments reach impl validated,
// with their defaults filled in; results are checked against their declared
// types before they are sent.
//
//   npm install && npm run build && node dist/server.js      (an MCP server on stdio)
//   gramc run --mcp 'node dist/server.js' .. 'Weather in Paris?'
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { registerTools, type ToolsImpl, type Unit, type WeatherReport } from "./gen/index.js";

function report(city: string, unit: Unit): WeatherReport {
  // Atlantis's sensor is broken: its humidity is out of range, so the
  // result does not match WeatherReport and the call is a tool error
  // naming the field (/humidity) instead of a malformed result.
  return {
    temperature: unit === "celsius" ? 14 : 57.2,
    conditions: "light rain",
    humidity: city === "Atlantis" ? 182 : 82,
    position: { latitude: 48.86, longitude: 2.35 },
    observedAt: "2026-11-28T12:00:00Z",
  };
}

const impl: ToolsImpl = {
  async getWeather({ city, unit }) {
    return report(city, unit);
  },
  async getForecast({ city, days, unit }) {
    return Array.from({ length: days }, () => report(city, unit));
  },
  async getAlerts({ minSeverity }) {
    return minSeverity > 2 ? [] : [{ headline: "Heavy rain", severity: 2 }];
  },
  async convertTemperature({ value, unit }) {
    return unit === "celsius" ? ((value - 32) * 5) / 9 : (value * 9) / 5 + 32;
  },
  async findStations({ code, limit }) {
    return [code].slice(0, limit ?? 100);
  },
};

const server = new McpServer({ name: "weather", version: "1.0.0" });
registerTools(server, impl);
await server.connect(new StdioServerTransport());
