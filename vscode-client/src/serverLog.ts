// The server's stderr, logged at each record's own level in the "Pallas LS" output channel.
//
// pallas-ls logs with Python's logging (pallas_ls/lsp/server.py, configure_logging):
//   "%(asctime)s %(levelname)s %(name)s: %(message)s", e.g.
//   2026-12-04 00:47:19,123 WARNING pygls.protocol.json_rpc: Cancel notification for unknown message id "7"
// A record may go on for several lines (a traceback after logger.exception): the lines up to the
// next record's header belong to it. Lines before any header (an interpreter that dies before
// logging is set up) are errors.
import * as readline from "node:readline";
import type * as stream from "node:stream";
import type * as vscode from "vscode";

type Level = "trace" | "debug" | "info" | "warn" | "error";

const HEADER = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[,.]\d+)? (TRACE|DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL) (.*)$/;

const LEVELS: Record<string, Level> = {
  TRACE: "trace",
  DEBUG: "debug",
  INFO: "info",
  WARNING: "warn",
  WARN: "warn",
  ERROR: "error",
  CRITICAL: "error",
  FATAL: "error",
};

/**
 * The normal traffic of an editing session that the server's log reports loudly: at most debug.
 * - pygls warns when a $/cancelRequest names a request it has already answered;
 * - a pull-diagnostics request answered "the analysis of this version is not ready"
 *   (ServerCancelled, the client asks again) is logged by pygls with its traceback.
 */
const ROUTINE = [/Cancel notification for unknown message id/, /the analysis of this version is not ready/];

/** The level a whole record (header line plus continuation lines) is written at. */
export function recordLevel(level: Level, text: string): Level {
  // pygls logs every message it sends (document text included) at INFO; the server lets it through
  // only when pallas-ls.logLevel is debug: it is debug output.
  if (level === "info" && text.startsWith("[server] pygls.")) {
    return "debug";
  }
  if ((level === "warn" || level === "error" || level === "info") && ROUTINE.some((re) => re.test(text))) {
    return "debug";
  }
  return level;
}

/** Group `input`'s lines into records and write each at its level; flush a record after a pause. */
export function pipeServerLog(input: stream.Readable, out: vscode.LogOutputChannel): void {
  let level: Level | undefined;
  let lines: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (level !== undefined && lines.length > 0) {
      const text = lines.join("\n");
      out[recordLevel(level, text)](text);
    }
    level = undefined;
    lines = [];
  };
  const rl = readline.createInterface({ input, crlfDelay: Infinity, terminal: false, historySize: 0 });
  rl.on("line", (line) => {
    const m = HEADER.exec(line);
    if (m) {
      flush();
      level = LEVELS[m[1]] ?? "info";
      lines = [`[server] ${m[2]}`];
    } else if (level === undefined) {
      if (line.trim() === "") {
        return;
      }
      level = "error";
      lines = [`[server] ${line}`];
    } else {
      lines.push(line);
    }
    // A traceback arrives in one burst: wait a moment for the rest of the record.
    if (timer) {
      clearTimeout(timer);
    }
    timer = setTimeout(flush, 50);
  });
  rl.on("close", flush);
}
