// The official TypeScript MCP SDK's client against a server command
// (argv[2], run by sh): lists the tools, then makes the calls of the JSON
// file argv[3] ([["tool", args], ...], in order), printing one line each:
//   tool NAME              for every tool listed
//   ok NAME VALUE          structuredContent, or the text, as JSON
//   error NAME TEXT        a tool error
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const client = new Client({ name: "gramc-test", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: "sh", args: ["-c", process.argv[2]], env: process.env, stderr: "inherit" }));
const { tools } = await client.listTools();
for (const t of tools) console.log("tool " + t.name);
const calls = process.argv[3] ? JSON.parse(fs.readFileSync(process.argv[3], "utf8")) : [];
for (const [name, args] of calls) {
  const res = await client.callTool({ name, arguments: args });
  const text = (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
  if (res.isError) console.log("error " + name + " " + text);
  else console.log("ok " + name + " " + JSON.stringify(res.structuredContent ?? text));
}
await client.close();
