// The interpreter selected in the Python extension (ms-python.python), when that extension is
// installed. It is optional: every function here degrades to "no interpreter" without it.
import { PythonExtension } from "@vscode/python-extension";
import * as vscode from "vscode";

const PYTHON_EXTENSION_ID = "ms-python.python";

async function api(): Promise<PythonExtension | undefined> {
  if (!vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) {
    return undefined;
  }
  try {
    return await PythonExtension.api();
  } catch {
    return undefined;
  }
}

/** The selected interpreter's executable for `resource`, or undefined. */
export async function findPythonExtensionInterpreter(
  resource: vscode.Uri | undefined,
  log: vscode.LogOutputChannel,
): Promise<string | undefined> {
  const python = await api();
  if (!python) {
    log.info("The Python extension is not installed; not asking it for an interpreter.");
    return undefined;
  }
  try {
    const active = python.environments.getActiveEnvironmentPath(resource);
    const env = await python.environments.resolveEnvironment(active);
    const exe = env?.executable.uri?.fsPath;
    if (!exe) {
      log.info(`The Python extension's environment ${active.path} has no executable.`);
    }
    return exe;
  } catch (err) {
    log.warn(`Asking the Python extension for its interpreter failed: ${String(err)}`);
    return undefined;
  }
}

/** Calls `listener` when the Python extension's selected interpreter changes. */
export function onPythonInterpreterChange(listener: () => void): vscode.Disposable {
  const subscriptions: vscode.Disposable[] = [];
  let disposed = false;
  void api().then((python) => {
    if (python && !disposed) {
      subscriptions.push(python.environments.onDidChangeActiveEnvironmentPath(() => listener()));
    }
  });
  return new vscode.Disposable(() => {
    disposed = true;
    subscriptions.forEach((d) => d.dispose());
  });
}
