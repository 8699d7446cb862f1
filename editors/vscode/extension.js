// The gram extension: starts `gramc lsp` (the gramc.path setting) and
// connects VS Code's language client to it. Everything else — diagnostics,
// hover, completion, navigation, formatting, rename, quick fixes, semantic
// highlighting — comes from the server.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('gramc');
  const command = config.get('path', 'gramc');
  const serverOptions = {
    run: { command, args: ['lsp'], transport: TransportKind.stdio },
    debug: { command, args: ['lsp'], transport: TransportKind.stdio },
  };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'gram' },
      { scheme: 'untitled', language: 'gram' },
    ],
    // The server reads its settings from initializationOptions and asks
    // for the "gramc" section again when it changes.
    // In a workspace VS Code does not trust (package.json's
    // untrustedWorkspaces), the server reads no git history at all.
    initializationOptions: { targets: config.get('targets', []), untrustedWorkspace: !vscode.workspace.isTrusted },
    synchronize: {
      configurationSection: 'gramc',
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.gram'),
    },
  };
  client = new LanguageClient('gramc', 'gram language server', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('gramc.path')) {
        vscode.window.showInformationMessage('gramc.path changed: reload the window to restart gramc lsp.');
      }
    }),
  );
  // Trust granted: start again, now reading the baseline.
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => client.restart()));
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
