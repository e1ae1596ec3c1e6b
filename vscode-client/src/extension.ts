// The Pallas LS extension: starts the pallas-ls language server and connects VS Code to it.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import * as vscode from "vscode";
import {
  type Executable,
  LanguageClient,
  type LanguageClientOptions,
  MessageType,
  ShowMessageNotification,
  RevealOutputChannelOn,
  State,
} from "vscode-languageclient/node";
import { findPythonExtensionInterpreter, onPythonInterpreterChange } from "./python";
import { pipeServerLog } from "./serverLog";

const ID = "pallas-ls";
const NAME = "Pallas LS";
/** Settings that change how the server process is started: a change restarts it. */
const RESTART_SETTINGS = ["enable", "path", "interpreter", "importStrategy", "logLevel", "logFile"].map((k) => `${ID}.${k}`);
/** Settings the server reads; sent as initializationOptions and synced on change. */
const SERVER_SETTINGS = ["select", "ignore", "severity", "exclude", "showSyntaxErrors", "debounce", "run"] as const;

/** One way of starting the server, in the order they are tried. */
interface Candidate {
  /** Where this came from, for the log and the failure message. */
  source: string;
  command: string;
  args: string[];
  /** The Python interpreter that runs `-m pallas_ls`, when this candidate is one. */
  interpreter?: string;
  /** Why it cannot be used (not installed, not found); undefined when it looks usable. */
  problem?: string;
  /** Extra environment (PYTHONPATH for the bundled server). */
  env?: Record<string, string>;
  /** True for the server shipped in the extension (bundled/libs). */
  bundled?: boolean;
}

/** The extension's own copy of pallas_ls and its dependencies (scripts/bundle.py). */
let bundledLibs = "";
let extensionDir = "";

let output: vscode.LogOutputChannel;
let traceOutput: vscode.LogOutputChannel;
let client: LanguageClient | undefined;
/** The language-status item (the "{}" in the status bar on Python files): the server's state. */
let status: vscode.LanguageStatusItem;

type ServerState = "starting" | "running" | "stopped" | "not found" | "disabled";

type NotificationKind = "error" | "warning" | "info";

/** Does pallas-ls.showNotifications allow a pop-up of this kind? (off < onError < onWarning < always) */
function popupAllowed(kind: NotificationKind): boolean {
  const mode = settings().get<string>("showNotifications") || "onError";
  const rank: Record<string, number> = { off: 0, onError: 1, onWarning: 2, always: 3 };
  const needed = kind === "error" ? 1 : kind === "warning" ? 2 : 3;
  return (rank[mode] ?? 1) >= needed;
}

/** A pop-up when pallas-ls.showNotifications allows it, always logged; resolves to the choice. */
function notify(kind: NotificationKind, message: string, ...items: string[]): Thenable<string | undefined> {
  const shown = popupAllowed(kind);
  const level = kind === "error" ? "error" : kind === "warning" ? "warn" : "info";
  output[level](shown ? message : `${message} (no pop-up: pallas-ls.showNotifications)`);
  if (!shown) {
    return Promise.resolve(undefined);
  }
  const show =
    kind === "error"
      ? vscode.window.showErrorMessage
      : kind === "warning"
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  return show(message, ...items);
}

/** Feedback to a command the user ran: a pop-up when allowed, else a status-bar message. */
function tell(kind: NotificationKind, message: string, ...items: string[]): Thenable<string | undefined> {
  if (popupAllowed(kind)) {
    return notify(kind, message, ...items);
  }
  output.info(message);
  vscode.window.setStatusBarMessage(message, 5000);
  return Promise.resolve(undefined);
}

/** Show the server's state, version and what runs it in the language-status item. */
function setStatus(state: ServerState, c?: Candidate, version?: string): void {
  status.text = `Pallas LS: ${state}`;
  status.busy = state === "starting";
  status.severity =
    state === "not found"
      ? vscode.LanguageStatusSeverity.Error
      : state === "stopped"
        ? vscode.LanguageStatusSeverity.Warning
        : vscode.LanguageStatusSeverity.Information;
  const parts: string[] = [];
  if (version) {
    parts.push(`pallas-ls ${version}`);
  }
  if (c) {
    parts.push(c.interpreter ? `${c.bundled ? "bundled, " : ""}Python ${c.interpreter}` : c.command);
  }
  status.detail = parts.join(" · ");
  status.accessibilityInformation = { label: [status.text, status.detail].filter(Boolean).join(", ") };
}
/** Serializes start/stop so commands and setting changes never race. */
let lifecycle: Promise<void> = Promise.resolve();
/**
 * A restart is queued and has not yet begun: further setting changes need no other one, and the
 * running client must not be sent their didChangeConfiguration (it is about to stop).
 */
let restartQueued = false;
/** Clients being stopped: nothing more is sent to them. */
const retiring = new Set<LanguageClient>();

export function activate(context: vscode.ExtensionContext): void {
  extensionDir = context.extensionPath;
  bundledLibs = path.join(context.extensionPath, "bundled", "libs");
  output = vscode.window.createOutputChannel(NAME, { log: true });
  traceOutput = vscode.window.createOutputChannel(`${NAME} Trace`, { log: true });
  status = vscode.languages.createLanguageStatusItem(`${ID}.status`, "python"); // notebook cells too
  status.name = NAME;
  status.command = { title: "Show Logs", command: `${ID}.showLogs`, tooltip: "Show the Pallas LS output" };
  setStatus("starting");
  context.subscriptions.push(
    output,
    traceOutput,
    status,
    vscode.commands.registerCommand(`${ID}.restart`, () => requestRestart("Restart requested")),
    vscode.commands.registerCommand(`${ID}.showLogs`, () => output.show(true)),
    vscode.commands.registerCommand(`${ID}.fixAll`, fixAll),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) {
        requestRestart("Server settings changed");
      }
      // Other pallas-ls.* settings reach the running server through the client's
      // synchronize.configurationSection (didChangeConfiguration + workspace/configuration).
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      output.info("The workspace is now trusted; restarting the server with the workspace's settings.");
      void queue(restart);
    }),
    onPythonInterpreterChange(() => {
      if (!settings().get<string[]>("path")?.length && !settings().get<string>("interpreter")) {
        requestRestart("The Python extension's interpreter changed");
      }
    }),
  );
  void queue(start);
}

export function deactivate(): Promise<void> {
  return queue(stop);
}

/** Queue one restart (several changes in a row, e.g. one settings.json write, make one). */
function requestRestart(why: string): Promise<void> {
  if (restartQueued) {
    output.debug(`${why}; a restart is already queued.`);
    return lifecycle;
  }
  output.info(`${why}; restarting the server.`);
  restartQueued = true;
  return queue(async () => {
    restartQueued = false; // from here on the settings are read afresh: a later change queues again
    await restart();
  });
}

function queue(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step).catch((err) => {
    output.error(`${String(err)}`);
  });
  return lifecycle;
}

function settings(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(ID, scope);
}

/** The settings the server reads, as a plain object (null = not set: use pyproject.toml). */
function serverSettings(): Record<string, unknown> {
  const cfg = settings();
  const out: Record<string, unknown> = {};
  for (const key of SERVER_SETTINGS) {
    out[key] = cfg.get(key) ?? null;
  }
  return out;
}

function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

/** Expand `~`, `${workspaceFolder}`, `${userHome}` and `${env:NAME}` in a setting value. */
function expand(value: string): string {
  const folder = firstFolder()?.uri.fsPath ?? "";
  let out = value
    .replace(/\$\{workspaceFolder\}/g, folder)
    .replace(/\$\{userHome\}/g, os.homedir())
    .replace(/\$\{env:([^}]+)\}/g, (_m, name: string) => process.env[name] ?? "");
  if (out === "~" || out.startsWith("~/")) {
    out = path.join(os.homedir(), out.slice(1));
  }
  return out;
}

/** Resolve a command like a shell would: a path with a separator as is, else search PATH. */
function which(command: string): string | undefined {
  const isFile = (p: string) => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes("/") || command.includes("\\")) {
    const abs = path.resolve(firstFolder()?.uri.fsPath ?? process.cwd(), command);
    return isFile(abs) ? abs : undefined;
  }
  const exts = process.platform === "win32" ? (process.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    for (const ext of exts) {
      const p = path.join(dir, command + ext);
      if (dir && isFile(p)) {
        return p;
      }
    }
  }
  return undefined;
}

/** Does this interpreter run, and can it import pallas_ls? */
function probeInterpreter(python: string): Promise<string | undefined> {
  const code = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('pallas_ls') else 3)";
  return new Promise((resolve) => {
    execFile(python, ["-c", code], { timeout: 20_000, ...isolated() }, (err) => {
      if (!err) {
        resolve(undefined);
      } else if ((err as NodeJS.ErrnoException).code === "ENOENT") {
        resolve("interpreter not found");
      } else if (err.code === 3) {
        resolve("pallas_ls is not installed in it (pip install pallas-ls)");
      } else {
        resolve(`it failed to run: ${err.message.split("\n")[0]}`);
      }
    });
  });
}

/** Is this a Python >= 3.10 that runs? (For the bundled server, which brings its own pallas_ls.) */
function probeVersion(python: string): Promise<string | undefined> {
  const code = "import sys; print('%d.%d.%d' % sys.version_info[:3]); sys.exit(0 if sys.version_info >= (3, 10) else 3)";
  return new Promise((resolve) => {
    execFile(python, ["-I", "-c", code], { timeout: 20_000, ...isolated() }, (err, stdout) => {
      if (!err) {
        resolve(undefined);
      } else if ((err as NodeJS.ErrnoException).code === "ENOENT") {
        resolve("interpreter not found");
      } else if (err.code === 3) {
        resolve(`it is Python ${String(stdout).trim()}; the bundled server needs Python >= 3.10`);
      } else {
        resolve(`it failed to run: ${err.message.split("\n")[0]}`);
      }
    });
  });
}

/** Python interpreters for the bundled server: the pallas-ls.interpreter setting, the Python
 * extension's, then python3 and python on PATH. */
async function bundledCandidates(serveArgs: string[]): Promise<Candidate[]> {
  const cfg = settings();
  const pythons: { source: string; python: string | undefined }[] = [];
  const configured = cfg.get<string>("interpreter")?.trim();
  if (configured) {
    pythons.push({ source: "the pallas-ls.interpreter setting", python: expand(configured) });
  }
  pythons.push({
    source: "the Python extension's selected interpreter",
    python: await findPythonExtensionInterpreter(firstFolder()?.uri, output),
  });
  output.info(`Looking for python3 / python on PATH: ${process.env.PATH ?? "(PATH is not set)"}`);
  for (const name of ["python3", "python"]) {
    pythons.push({ source: `${name} on PATH`, python: which(name) });
  }
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const { source, python } of pythons) {
    if (!python) {
      if (!source.startsWith("the Python extension")) {
        out.push({ source, command: "", args: [], problem: "not found", bundled: true });
      }
      continue;
    }
    if (seen.has(python)) {
      continue;
    }
    seen.add(python);
    const pythonPath = [bundledLibs, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter);
    out.push({
      source: `the bundled server with ${source} (${python})`,
      command: python,
      args: ["-m", "pallas_ls", ...serveArgs],
      interpreter: python,
      problem: fs.existsSync(path.join(bundledLibs, "pallas_ls"))
        ? await probeVersion(python)
        : `the extension has no bundled server (${bundledLibs} is missing)`,
      env: { PYTHONPATH: pythonPath, PYTHONNOUSERSITE: "1" },
      bundled: true,
    });
  }
  return out;
}

/** The ways to start the server, in order. useBundled (and any untrusted workspace): the bundled
 * server with a Python >= 3.10. fromEnvironment: pallas-ls.path, an interpreter with pallas_ls,
 * pallas-ls on PATH. */
async function candidates(): Promise<Candidate[]> {
  const cfg = settings();
  const logLevel = cfg.get<string>("logLevel") || "warning";
  const serveArgs = ["serve", "--log-level", logLevel];
  const logFile = cfg.get<string>("logFile")?.trim();
  if (logFile) {
    serveArgs.push("--log-file", expand(logFile));
  }
  const strategy = cfg.get<string>("importStrategy") || "useBundled";
  if (!vscode.workspace.isTrusted) {
    output.info("The workspace is not trusted: using the bundled server only.");
    return bundledCandidates(serveArgs);
  }
  if (strategy !== "fromEnvironment") {
    return bundledCandidates(serveArgs);
  }
  const out: Candidate[] = [];

  const cmd = (cfg.get<string[]>("path") ?? []).filter((s) => typeof s === "string" && s.length > 0).map(expand);
  if (cmd.length > 0) {
    const resolved = which(cmd[0]);
    out.push({
      source: "the pallas-ls.path setting",
      command: resolved ?? cmd[0],
      args: cmd.slice(1),
      problem: resolved ? undefined : `${cmd[0]} not found`,
    });
  }

  const configured = cfg.get<string>("interpreter")?.trim();
  let python: string | undefined;
  let pythonSource = "";
  if (configured) {
    python = expand(configured);
    pythonSource = "the pallas-ls.interpreter setting";
  } else {
    python = await findPythonExtensionInterpreter(firstFolder()?.uri, output);
    pythonSource = "the Python extension's selected interpreter";
  }
  if (python) {
    output.info(`Trying the interpreter from ${pythonSource}: ${python}`);
    out.push({
      source: `${pythonSource} (${python})`,
      command: python,
      args: ["-m", "pallas_ls", ...serveArgs],
      interpreter: python,
      problem: await probeInterpreter(python),
    });
  }

  const onPath = which("pallas-ls");
  if (!onPath) {
    output.info(`pallas-ls is not on PATH; searched: ${process.env.PATH ?? "(PATH is not set)"}`);
  }
  out.push({
    source: "pallas-ls on PATH",
    command: onPath ?? "pallas-ls",
    args: serveArgs,
    problem: onPath ? undefined : "not found on PATH",
  });
  return out;
}

/** Where the server and the interpreter probes start, and how: never in the workspace. `python -m`
 * puts its working directory first on sys.path, so a workspace's `pallas_ls.py` or `importlib.py`
 * would run before our code could stop it (issue 35). The extension's own directory holds no Python
 * module; PYTHONSAFEPATH (Python 3.11+) keeps even that off sys.path. The server learns the
 * workspace from the initialize request, not from its working directory. */
function isolated(extra?: NodeJS.ProcessEnv): { cwd: string; env: NodeJS.ProcessEnv } {
  return { cwd: extensionDir || os.homedir(), env: { ...process.env, PYTHONSAFEPATH: "1", ...(extra ?? {}) } };
}

function makeClient(c: Candidate): LanguageClient {
  const server: Executable = {
    command: c.command,
    args: c.args,
    options: isolated({ PYTHONUNBUFFERED: "1", ...(c.env ?? {}) }),
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
      // Python cells of any notebook (Jupyter's and others); the cells' scheme is vscode-notebook-cell.
      { notebook: "*", language: "python" },
    ],
    synchronize: { configurationSection: ID },
    middleware: {
      workspace: {
        // The client's own settings listener runs after ours: when the change restarts the server,
        // or this client is stopping, there is nobody to tell (and sending would fail loudly).
        didChangeConfiguration: (sections, next) => {
          if (restartQueued || !self || retiring.has(self) || self.state === State.Stopped) {
            return Promise.resolve();
          }
          return next(sections);
        },
      },
      // pallas-ls.fixAll / pallas-ls.codeAction.disableRuleComment.enable hide those actions.
      provideCodeActions: async (document, range, context, token, next) => {
        const actions = await next(document, range, context, token);
        const cfg = settings(document);
        const fixAllOn = cfg.get<boolean>("fixAll") ?? true;
        const disableOn = cfg.get<boolean>("codeAction.disableRuleComment.enable") ?? true;
        if (!actions || (fixAllOn && disableOn)) {
          return actions;
        }
        return actions.filter((a) => {
          if (a instanceof vscode.CodeAction) {
            if (!fixAllOn && a.kind && vscode.CodeActionKind.SourceFixAll.contains(a.kind)) {
              return false;
            }
            if (!disableOn && /: Disable \S+ for this line$/.test(a.title)) {
              return false;
            }
          }
          return true;
        });
      },
    },
    initializationOptions: serverSettings(),
    outputChannel: output,
    // stderr is the server's log: each record at its own level (not everything as [error]).
    stdioOptions: {
      stdout: (input, out) => {
        readline.createInterface({ input, crlfDelay: Infinity, terminal: false }).on("line", (l) => out.info(l));
      },
      stderr: pipeServerLog,
    },
    traceOutputChannel: traceOutput,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    diagnosticCollectionName: ID,
  };
  // The id "pallas-ls" makes the client honour the pallas-ls.trace.server setting.
  const self: LanguageClient = new LanguageClient(ID, NAME, server, clientOptions);
  // The server's window/showMessage pop-ups follow pallas-ls.showNotifications too (this handler
  // replaces the client's built-in one once the server is initialized).
  self.onNotification(ShowMessageNotification.type, (m) => {
    const kind: NotificationKind =
      m.type === MessageType.Error ? "error" : m.type === MessageType.Warning ? "warning" : "info";
    void notify(kind, m.message);
  });
  return self;
}

async function start(): Promise<void> {
  if (settings().get<boolean>("enable") === false) {
    output.info("pallas-ls.enable is false: the server is not started.");
    setStatus("disabled");
    return;
  }
  setStatus("starting");
  const tried: string[] = [];
  for (const c of await candidates()) {
    if (c.problem) {
      output.warn(`Not using ${c.source}: ${c.problem}.`);
      tried.push(`${c.source}: ${c.problem}`);
      continue;
    }
    output.info(`Starting the server from ${c.source}: ${[c.command, ...c.args].join(" ")}`);
    const candidate = makeClient(c);
    try {
      await candidate.start();
      client = candidate;
      const info = candidate.initializeResult?.serverInfo;
      output.info(`Server running${info ? `: ${info.name} ${info.version ?? ""}` : ""}.`);
      setStatus("running", c, info?.version);
      candidate.onDidChangeState((e) => {
        if (client !== candidate) {
          return; // an old client being stopped on purpose
        }
        if (e.newState === State.Stopped) {
          setStatus("stopped", c, info?.version);
        } else if (e.newState === State.Running) {
          setStatus("running", c, candidate.initializeResult?.serverInfo?.version ?? info?.version);
        } else {
          setStatus("starting", c, info?.version);
        }
      });
      return;
    } catch (err) {
      output.error(`The server from ${c.source} did not start: ${String(err)}`);
      tried.push(`${c.source}: it did not start`);
      if (candidate.state !== State.Stopped) {
        retiring.add(candidate);
        await candidate.dispose(2000).catch(() => undefined);
        retiring.delete(candidate);
      }
    }
  }
  setStatus("not found");
  status.detail = "could not start the server (see the logs)";
  void showStartFailure(tried);
}

async function showStartFailure(tried: string[]): Promise<void> {
  output.error(`Could not start pallas-ls. Tried:\n  ${tried.join("\n  ")}`);
  const openSettings = "Open Settings";
  const showLogs = "Show Logs";
  const choice = await notify(
    "error",
    settings().get<string>("importStrategy") === "fromEnvironment" && vscode.workspace.isTrusted
      ? "Pallas LS: could not start the pallas-ls server. Install it in your Python environment " +
          "(pip install pallas-ls), or set pallas-ls.interpreter or pallas-ls.path."
      : "Pallas LS: could not start the bundled pallas-ls server: it needs Python 3.10 or newer. " +
          "Set pallas-ls.interpreter, or put python3 on PATH.",
    openSettings,
    showLogs,
  );
  output.info(`Start failure notification: ${choice ? `"${choice}" chosen` : "dismissed"}`);
  if (choice === openSettings) {
    // With a folder open the fix belongs in its settings (the interpreter is the project's).
    if (firstFolder()) {
      await vscode.commands.executeCommand("workbench.action.openWorkspaceSettings", { query: ID });
    } else {
      await vscode.commands.executeCommand("workbench.action.openSettings", ID);
    }
  } else if (choice === showLogs) {
    output.show();
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    retiring.add(running);
    await running.dispose(5000).catch((err) => output.warn(`Stopping the server: ${String(err)}`));
    retiring.delete(running);
    setStatus("stopped");
  }
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

/** "Pallas: Fix All": apply the server's source.fixAll.pallas-ls action to the active editor. */
async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "python") {
    void tell("info", "Pallas LS: open a Python file to fix.");
    return;
  }
  if (!client?.isRunning()) {
    void tell("warning", "Pallas LS: the server is not running.", "Show Logs").then((c) => {
      if (c) {
        output.show(true);
      }
    });
    return;
  }
  const kind = vscode.CodeActionKind.SourceFixAll.append(ID);
  const actions =
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      "vscode.executeCodeActionProvider",
      editor.document.uri,
      new vscode.Range(0, 0, editor.document.lineCount, 0),
      kind.value,
      10, // resolve lazily computed edits
    )) ?? [];
  const action = actions.find((a) => a.kind && kind.contains(a.kind));
  if (!action) {
    void vscode.window.setStatusBarMessage("Pallas LS: nothing to fix.", 3000);
    return;
  }
  if (action.edit) {
    await vscode.workspace.applyEdit(action.edit);
  }
  if (action.command) {
    await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
  }
}
