#!/usr/bin/env node
// SPEC §20.3: the launcher of the `mecatl-prompt` npm package. The binary
// lives in one platform package (`@mecatl-prompt/linux-x64`, …), an optional
// dependency that npm installs only where its `os`, `cpu` and `libc` fit.
// This script finds the installed one that fits this process, runs its
// binary with the same arguments and streams, and exits with its status.
// Choices: on Linux a package for the running C library is preferred; a
// package without a `libc` field, or (on glibc) the static musl build, is
// taken next. No install script, no download.
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawnSync } = require("child_process");

const manifest = require("../package.json");

/** The C library of this Linux process: "glibc" or "musl". */
function libc() {
  const report = process.report && process.report.getReport();
  const header = report && (typeof report === "string" ? JSON.parse(report) : report).header;
  return header && header.glibcVersionRuntime ? "glibc" : "musl";
}

/** Whether a package's `os`/`cpu` list allows `value`. */
function allows(list, value) {
  return !Array.isArray(list) || list.length === 0 || list.includes(value);
}

/** The installed platform packages that fit, best first, as binary paths. */
function candidates() {
  const running = process.platform === "linux" ? libc() : null;
  const found = [];
  for (const name of Object.keys(manifest.optionalDependencies || {})) {
    let file;
    try {
      file = require.resolve(`${name}/package.json`);
    } catch {
      continue;
    }
    const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
    if (!allows(pkg.os, process.platform) || !allows(pkg.cpu, process.arch)) continue;
    const libcs = Array.isArray(pkg.libc) ? pkg.libc : [];
    // 0: built for this C library (or none named); 1: static musl on glibc.
    let rank;
    if (libcs.length === 0 || libcs.includes(running)) rank = 0;
    else if (running === "glibc" && libcs.includes("musl")) rank = 1;
    else continue;
    const exe = process.platform === "win32" ? "mecatl-prompt.exe" : "mecatl-prompt";
    found.push({ rank, binary: path.join(path.dirname(file), "bin", exe) });
  }
  return found.sort((a, b) => a.rank - b.rank).map((c) => c.binary);
}

const binary = candidates()[0];
if (binary === undefined) {
  const wanted = `${process.platform}-${process.arch}${process.platform === "linux" ? ` (${libc()})` : ""}`;
  const packages = Object.keys(manifest.optionalDependencies || {}).join(", ") || "none";
  process.stderr.write(
    `mecatl-prompt: no binary for ${wanted} is installed (platform packages: ${packages}); ` +
      "reinstall without --omit=optional, or install with cargo (`cargo install mecatl-prompt`)\n",
  );
  process.exit(2);
}

const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (result.error) {
  process.stderr.write(`mecatl-prompt: cannot run ${binary}: ${result.error.message}\n`);
  process.exit(2);
}
if (result.signal) {
  // Die of the same signal; where node ignores it, exit as a shell would.
  process.kill(process.pid, result.signal);
  process.exit(128 + (os.constants.signals[result.signal] || 0));
}
process.exit(result.status);
