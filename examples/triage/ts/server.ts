// A TypeScript MCP server for the triage agent's tool, on the code gramc
// generates into gen/ (npm run gen: gramc gen --lang ts -o gen ..; not committed);
// gen/ also has triage(client, {ticket}), the typed client of the agent as
// gramc mcp --agents serves it.
//
//   npm install && npm run build && node dist/server.js      (an MCP server on stdio)
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { registerTools, type ToolsImpl } from "./gen/index.js";

const impl: ToolsImpl = {
  async lookupCustomer({ email }) {
    return email.endsWith("@example.com") ? "gold" : "free";
  },
};

const server = new McpServer({ name: "triage", version: "1.0.0" });
registerTools(server, impl);
await server.connect(new StdioServerTransport());
