// client.mjs CLIENT COMMAND ARGS... starts COMMAND as an MCP server over
// stdio with one of the official TypeScript SDK's clients and prints, one
// JSON object a line, what it negotiated and what the server offers and
// answers, for gramc's tests to check:
//
//   CLIENT is v1 (@modelcontextprotocol/sdk 1.x: MCP 2025-11-25),
//   v2-legacy (@modelcontextprotocol/client 2.x, its 2025-era handshake)
//   or v2-modern (@modelcontextprotocol/client 2.x pinned to 2026-07-28).
//
// Each line of standard input, "TOOL JSON", calls TOOL with the JSON
// arguments. Any error the SDK raises (a schema it rejects included) is
// printed as {"error": ...} and exits 1.
import { createInterface } from 'node:readline';

const [mode, command, ...args] = process.argv.slice(2);
const info = { name: 'gramc-ts-test', version: '1.0.0' };

function out(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

async function connect() {
  if (mode === 'v1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client(info);
    await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
    return client;
  }
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const versionNegotiation = mode === 'v2-modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' };
  const client = new Client(info, { versionNegotiation });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
  return client;
}

try {
  const client = await connect();
  const caps = client.getServerCapabilities() ?? {};
  out({ protocolVersion: client.getNegotiatedProtocolVersion?.() ?? client.transport?.protocolVersion ?? null, logging: 'logging' in caps, tools: 'tools' in caps });
  const list = await client.listTools();
  out({ ttlMs: list.ttlMs ?? null });
  for (const t of list.tools) {
    out({ tool: t.name, outputSchema: t.outputSchema ?? null });
  }
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    const i = line.indexOf(' ');
    if (!line.trim()) continue;
    const name = i < 0 ? line : line.slice(0, i);
    const argsJSON = i < 0 ? '{}' : line.slice(i + 1);
    const res = await client.callTool({ name, arguments: JSON.parse(argsJSON) });
    out({
      call: name,
      isError: res.isError ?? false,
      text: (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join(''),
      structuredContent: res.structuredContent ?? null,
    });
  }
  await client.close();
  process.exit(0);
} catch (e) {
  out({ error: String(e?.message ?? e) });
  process.exit(1);
}
