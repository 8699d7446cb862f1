package typescript

import (
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/check"
)

// mcpFile is mcp.ts: ToolsImpl, registerTools and the agents' clients.
func (g *gen) mcpFile(b *strings.Builder) error {
	g.head(b, "The package's tools served on the MCP TypeScript SDK's McpServer, and its agents called over MCP as gramc mcp --agents serves them.")
	b.WriteString(`
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { LATEST_PROTOCOL_VERSION, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod/v4";
`)
	if len(g.tools) > 0 || len(g.agents) > 0 {
		b.WriteString("import * as gramcTypes from \"./types.js\";\n")
	}
	b.WriteByte('\n')
	writeDoc(b, "", "ToolsImpl implements the package's tools: one method per tool, given its arguments validated with their defaults filled in, returning its result (checked against the result type before it is sent). A thrown error is sent as a tool error.")
	b.WriteString("export interface ToolsImpl {\n")
	for i, tn := range g.tools {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeDoc(b, "  ", fmt.Sprintf("%s implements the gram tool %s.", tn.method, jsString(tn.t.Name)), tn.t.Description)
		b.WriteString("  " + tn.method + "(args: gramcTypes." + tn.base + "Args): Promise<gramcTypes." + tn.base + "Result>;\n")
	}
	b.WriteString("}\n\n")

	writeDoc(b, "", "gramcEntries are the tools as gramc schema --target mcp lists them (compact JSON), what registerTools serves as the tool list.")
	b.WriteString("const gramcEntries: readonly string[] = [")
	for i, tn := range g.tools {
		sep(b, i)
		b.WriteString("  " + jsString(tn.entry))
	}
	if len(g.tools) > 0 {
		b.WriteString(",\n")
	}
	b.WriteString("];\n\n")

	writeDoc(b, "", "registerTools registers every tool of the package on server, implemented by impl. Each call's arguments are validated (and their defaults filled in) before impl sees them; its result is validated before it is sent, and one that does not match the result type is a tool error naming the field. The tool list served is exactly gramc schema --target mcp's entries (descriptions, schemas, titles), so gramc diff --against-mcp finds no change; tools registered on the same server by other code are not listed.")
	// gramcTool is not generic, and every call returns the one type
	// gramcToolDef: tsc infers nothing per tool (docs/performance.md).
	impl := "impl"
	if len(g.tools) == 0 {
		impl = "_impl" // a package without tools: noUnusedParameters passes over an underscore
	}
	b.WriteString("export function registerTools(server: McpServer, " + impl + ": ToolsImpl): void {\n  gramcRegister(server, gramcEntries, [")
	for i, tn := range g.tools {
		sep(b, i)
		text, structured := "false", "false"
		if r := tn.t.Result; r != nil && r.Kind == check.String {
			text = "true"
		}
		if r := tn.t.Result; r != nil && (r.Kind == check.Record || r.Kind == check.Object) {
			structured = "true"
		}
		fmt.Fprintf(b, "    gramcTool(%s, gramcTypes.%sArgsSchema, gramcTypes.%sResultSchema, %s, %s, (args) => impl.%s(args as gramcTypes.%sArgs))",
			jsString(tn.t.Name), tn.base, tn.base, text, structured, tn.method, tn.base)
	}
	if len(g.tools) > 0 {
		b.WriteString(",\n  ")
	}
	b.WriteString("]);\n}\n")

	if len(g.agents) > 0 {
		b.WriteString("\n// Agents.\n")
	}
	for _, an := range g.agents {
		a := an.a
		b.WriteByte('\n')
		writeDoc(b, "", fmt.Sprintf("%s calls the gram agent %s over MCP, as gramc mcp --agents serves it: the input is validated before anything is sent (an AgentInputError when it does not match), and the output (the call's structuredContent, or its text) is validated on return (an AgentError when it does not match, or when the call fails).", an.function, jsString(a.Name)), a.Description)
		fmt.Fprintf(b, "export async function %s(client: AgentCaller, input: gramcTypes.%sInput): Promise<gramcTypes.%sOutput> {\n", an.function, an.base, an.base)
		text := "true"
		if a.Typed() {
			text = "false"
		}
		fmt.Fprintf(b, "  return gramcCallAgent(client, %s, gramcTypes.%sInputSchema, gramcTypes.%sOutputSchema, %s, input);\n}\n", jsString(a.Name), an.base, an.base, text)
	}
	g.writeMCPHelpers(b)
	return nil
}

// mcp.ts's fixed declarations, each written only where it is used (so
// that a program compiled with noUnusedLocals accepts the file): the
// agents' errors, the tool definitions and the registration always; the
// issues' text where a tool or an agent validates; the tool binder where
// there are tools; the agent caller where there are agents.
const (
	mcpHelpersCommon = `
/** AgentCaller is what an agent's client function calls: the MCP SDK's Client, connected to gramc mcp --agents. */
export interface AgentCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** AgentInputError is thrown, before anything is sent, when an agent's input does not match its type. */
export class AgentInputError extends Error {
  constructor(readonly agent: string, readonly issues: string) {
    super("the input of agent " + agent + " does not match its type: " + issues);
    this.name = "AgentInputError";
  }
}

/** AgentError is thrown when an agent's call fails or its output does not match its type. */
export class AgentError extends Error {
  constructor(readonly agent: string, message: string) {
    super("agent " + agent + ": " + message);
    this.name = "AgentError";
  }
}

/** gramcCallResult is the part of an MCP tools/call result the generated code reads and writes. */
interface gramcCallResult {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** gramcToolDef is a tool as gramcRegister registers it. */
interface gramcToolDef {
  name: string;
  args: z.ZodType<unknown>;
  call(args: unknown): Promise<gramcCallResult>;
}

`
	mcpHelpersIssues = `/** gramcPointer is a Zod issue's path as a JSON pointer. */
function gramcPointer(path: ReadonlyArray<PropertyKey>): string {
  return "/" + path.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
}

/** gramcIssues describes a Zod error: each issue at its JSON pointer. */
function gramcIssues(error: z.ZodError): string {
  return error.issues.map((i) => "at " + JSON.stringify(gramcPointer(i.path)) + ": " + i.message).join("; ");
}

`
	mcpHelpersText = `/** gramcText is an MCP result's text content. */
function gramcText(result: unknown): string {
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((c): c is { type: "text"; text: string } => typeof c === "object" && c !== null && c.type === "text" && typeof c.text === "string")
    .map((c) => c.text)
    .join("");
}

`
	mcpHelpersTool = `/** gramcTool binds a tool's implementation to its schemas: text results are sent as text, structured ones as structuredContent too, the rest as JSON text. */
function gramcTool(name: string, args: z.ZodType, result: z.ZodType, text: boolean, structured: boolean, run: (args: unknown) => Promise<unknown>): gramcToolDef {
  return {
    name,
    args,
    async call(input: unknown): Promise<gramcCallResult> {
      const parsedArgs = args.safeParse(input);
      if (!parsedArgs.success) {
        return { content: [{ type: "text", text: "the arguments of tool " + name + " do not match its parameters: " + gramcIssues(parsedArgs.error) }], isError: true };
      }
      let value: unknown;
      try {
        value = await run(parsedArgs.data);
      } catch (e) {
        return { content: [{ type: "text", text: e instanceof Error ? e.message : String(e) }], isError: true };
      }
      const checked = result.safeParse(value);
      if (!checked.success) {
        return { content: [{ type: "text", text: "the result of tool " + name + " does not match its type: " + gramcIssues(checked.error) }], isError: true };
      }
      if (text) return { content: [{ type: "text", text: String(checked.data) }] };
      const json = JSON.stringify(checked.data);
      if (structured) return { content: [{ type: "text", text: json }], structuredContent: checked.data as Record<string, unknown> };
      return { content: [{ type: "text", text: json }] };
    },
  };
}

`
	mcpHelpersRegister = `interface gramcListed {
  name: string;
  title?: string;
  description?: string;
  outputSchema?: { type?: unknown };
  _meta?: Record<string, unknown>;
}

/**
 * gramcEntry is a tool as this SDK's protocol may list it: any outputSchema
 * from MCP 2026-07-28 on (SEP-2106), only an object's before (the entry's
 * protocol stamp goes with a schema left out), as gramc mcp serves it.
 */
function gramcEntry(e: gramcListed): gramcListed {
  if (LATEST_PROTOCOL_VERSION >= "2026-07-28" || e.outputSchema === undefined || e.outputSchema.type === "object") return e;
  const { outputSchema: _dropped, _meta, ...rest } = e;
  const meta = { ..._meta };
  delete meta["dev.gramc/protocolVersion"];
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

/** gramcRegister registers tools on server and serves entries as its tool list. */
function gramcRegister(server: McpServer, entries: readonly string[], tools: readonly gramcToolDef[]): void {
  const register = server.registerTool.bind(server) as unknown as (
    name: string,
    config: { title?: string | undefined; description?: string | undefined; inputSchema: z.ZodType<unknown>; _meta?: Record<string, unknown> | undefined },
    cb: (args: unknown) => Promise<gramcCallResult>,
  ) => unknown;
  const listing = entries.map((e) => gramcEntry(JSON.parse(e) as gramcListed));
  tools.forEach((t, i) => {
    const e = listing[i];
    if (e === undefined) return; // one entry per tool: never
    // The SDK parses the arguments with the schema given here; call
    // validates them again (a no-op on parsed arguments) so that its
    // errors name the field.
    register(t.name, { title: e.title, description: e.description, inputSchema: t.args, _meta: e._meta }, (args) => t.call(args));
  });
  if (tools.length > 0) {
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  }
}

`
	mcpHelpersCallAgent = `/** gramcCallAgent calls an agent served by gramc mcp --agents. */
async function gramcCallAgent<I, O>(client: AgentCaller, name: string, input: z.ZodType<I>, output: z.ZodType<O>, text: boolean, value: I): Promise<O> {
  const checked = input.safeParse(value);
  if (!checked.success) throw new AgentInputError(name, gramcIssues(checked.error));
  const result = (await client.callTool({ name, arguments: value as Record<string, unknown> })) as { isError?: boolean; structuredContent?: unknown };
  const body = gramcText(result);
  if (result.isError) throw new AgentError(name, body);
  let out: unknown = result.structuredContent;
  if (out === undefined) {
    if (text) {
      out = body;
    } else {
      try {
        out = JSON.parse(body);
      } catch {
        throw new AgentError(name, "the output is not JSON: " + JSON.stringify(body.slice(0, 200)));
      }
    }
  }
  const parsedOut = output.safeParse(out);
  if (!parsedOut.success) throw new AgentError(name, "the output does not match its type: " + gramcIssues(parsedOut.error));
  return parsedOut.data;
}
`
)

// writeMCPHelpers writes the fixed declarations mcp.ts uses, in their
// order.
func (g *gen) writeMCPHelpers(b *strings.Builder) {
	tools, agents := len(g.tools) > 0, len(g.agents) > 0
	b.WriteString(mcpHelpersCommon)
	if tools || agents {
		b.WriteString(mcpHelpersIssues)
	}
	if agents {
		b.WriteString(mcpHelpersText)
	}
	if tools {
		b.WriteString(mcpHelpersTool)
	}
	b.WriteString(mcpHelpersRegister)
	if agents {
		b.WriteString(mcpHelpersCallAgent)
	}
}

// codeModeFile is tools.d.ts: the tools as a typed API for code mode.
func (g *gen) codeModeFile(b *strings.Builder) error {
	g.head(b, "Code mode: the package's tools as a typed API, `declare const tools`, each call's result typed from the tool's result type. The types live in the namespace of the same name (tools.GetWeatherArgs).")
	b.WriteString("\ndeclare namespace tools {")
	var inner strings.Builder
	g.typeDecls(&inner, "  ", wire, false)
	b.WriteString(inner.String())
	b.WriteString("}\n\n")
	b.WriteString("declare const tools: {\n")
	for i, tn := range g.tools {
		if i > 0 {
			b.WriteByte('\n')
		}
		title := ""
		if tn.t.Title != "" {
			title = "Title: " + tn.t.Title
		}
		writeDoc(b, "  ", tn.t.Description, title, fmt.Sprintf("The gram tool %s.", jsString(tn.t.Name)))
		b.WriteString("  " + tn.method + "(args: tools." + tn.base + "Args): Promise<tools." + tn.base + "Result>;\n")
	}
	b.WriteString("};\n")
	return nil
}
