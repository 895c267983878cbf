#!/usr/bin/env python3
"""Record oracle fixtures: what the real agents load, captured once, replayed by `cargo test`.

usage: python3 tests/oracle/record.py [--print | --raw] CASE...
  CASE   a case folder relative to tests/oracle/cases (e.g. claude-instructions/both-files),
         a group folder (all its cases), or "all"
  --print  print the expected.json instead of writing it
  --raw    print the whole captured request, masked, instead of extracting from it

For each case (see tests/oracle/README.md for the format) this copies `tree/` into a fresh
temp directory, creates the `.git` markers `case.json` asks for, runs the agent through
../shared/oracle/*-capture.sh (an empty network namespace, a loopback fake API, dummy keys,
a throw-away HOME seeded from `home/`), extracts the facts the replay test compares (file
paths, scopes, contents, expansions, listing entries; never the agent's own prose), masks the
temp paths as <TREE> and <HOME>, and writes `expected.json` beside `case.json`.

Needs the agents installed by ../shared/oracle/install-agents.sh. `cargo test` never runs this.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")


def find_oracle():
    """$MECATL_ORACLE_DIR, else the nearest `shared/oracle` above this file (../shared from a
    clone, ../../shared from a worktree under wt/)."""
    if os.environ.get("MECATL_ORACLE_DIR"):
        return os.environ["MECATL_ORACLE_DIR"]
    d = HERE
    while os.path.dirname(d) != d:
        d = os.path.dirname(d)
        candidate = os.path.join(d, "shared", "oracle")
        if os.path.isfile(os.path.join(candidate, "claude-capture.sh")):
            return candidate
    return os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "oracle"))


ORACLE = find_oracle()
HOME_RE = re.compile(r"/tmp/(?:claude|codex|gemini|opencode|copilot)-oracle\.[A-Za-z0-9]+/home")


def fail(msg):
    sys.exit("record.py: " + msg)


def case_dirs(arg):
    root = CASES if arg == "all" else os.path.join(CASES, arg)
    if os.path.isfile(os.path.join(root, "case.json")):
        return [root]
    found = sorted(
        dirpath for dirpath, _, files in os.walk(root) if "case.json" in files
    )
    if not found:
        fail("no case under " + root)
    return found


def prepare(case_dir, case):
    """Copies tree/ into a temp dir; returns (temp root, workspace, cwd) as real paths."""
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="mp-oracle-"))
    tree = os.path.join(case_dir, "tree")
    if os.path.isdir(tree):
        shutil.copytree(tree, tmp, dirs_exist_ok=True, symlinks=True)
    for d in case.get("git_dirs", []):
        path = os.path.join(tmp, d)
        os.makedirs(path, exist_ok=True)
        subprocess.run(["git", "init", "-q", path], check=True)
    for d in case.get("git_files", []):
        with open(os.path.join(tmp, d, ".git"), "w") as f:
            f.write("gitdir: /nonexistent/worktree\n")
    for spec in case.get("generate", []):
        generate(tmp, spec)
    for rel, name in case.get("shared", {}).items():
        path = os.path.join(tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copy(os.path.join(HERE, "shared", name), path)
    for rel in case.get("substitute", []):
        path = os.path.join(tmp, rel)
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data.replace(b"<TREE>", tmp.encode()))
    ws = os.path.join(tmp, case.get("workspace", "."))
    cwd = os.path.join(tmp, case.get("cwd", case.get("workspace", ".")))
    return tmp, os.path.normpath(ws), os.path.normpath(cwd)


def generate(tmp, spec):
    """Writes a generated file: `bytes` bytes in all, `fill` repeated, then `tail`.

    Large inputs (the 4 MiB limit) are made at record and replay time instead of committed.
    """
    tail = spec.get("tail", "").encode()
    fill = spec.get("fill", " ").encode()
    size = spec["bytes"] - len(tail)
    if size < 0 or not fill:
        fail("bad generate spec: %r" % spec)
    body = (fill * (size // len(fill) + 1))[:size] + tail
    path = os.path.join(tmp, spec["path"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(body)


def project_slug(path):
    """Claude Code's per-project directory name: every non-alphanumeric character is `-`."""
    return re.sub(r"[^a-zA-Z0-9]", "-", path)


def home_fixture(case_dir, case, tmp):
    """The directory to seed the agent's HOME from, or None.

    `home/` as is, plus for each `auto_memory` entry (a tree directory -> a folder of the case)
    that folder placed at ~/.claude/projects/<the directory's slug>/memory/. The slug holds
    the temp path, so it can only be laid out at record time.
    """
    home = os.path.join(case_dir, "home")
    has_home = case.get("home") and os.path.isdir(home)
    if not case.get("auto_memory"):
        return home if has_home else None
    seeded = tempfile.mkdtemp(prefix="mp-oracle-home-")
    if has_home:
        shutil.copytree(home, seeded, dirs_exist_ok=True, symlinks=True)
    for key, folder in sorted(case["auto_memory"].items()):
        slug = project_slug(os.path.normpath(os.path.join(tmp, key)))
        memory = os.path.join(seeded, ".claude", "projects", slug, "memory")
        shutil.copytree(os.path.join(case_dir, folder), memory)
    return seeded


def capture(case_dir, case, ws, cwd, home=None):
    env = dict(os.environ)
    if home:
        env["ORACLE_HOME_FIXTURE"] = home
    extra = " ".join("%s=%s" % kv for kv in sorted(case.get("env", {}).items()))
    prompt = case.get("prompt", "hi")
    sub = os.path.relpath(cwd, ws)
    if case["agent"] == "claude":
        env["ORACLE_CWD"] = sub
        if extra:
            env["ORACLE_ENV"] = extra
        if case.get("approve_external"):
            env["ORACLE_APPROVE_EXTERNAL"] = "1"
        cmd = [os.path.join(ORACLE, "claude-capture.sh"), ws, prompt]
    elif case["agent"] == "codex":
        if case.get("codex_mode") == "exec":
            env["ORACLE_CODEX_MODE"] = "exec"
        if case.get("codex_args"):
            env["ORACLE_CODEX_ARGS"] = case["codex_args"]
        cmd = [os.path.join(ORACLE, "codex-capture.sh"), ws, sub, prompt]
    elif case["agent"] == "gemini":
        cmd = [os.path.join(ORACLE, "gemini-capture.sh"), ws, sub, prompt]
    elif case["agent"] == "opencode":
        if extra:
            env["ORACLE_ENV"] = extra
        if case.get("touch"):
            # One `read` per touched path, each in its own model turn; the last request
            # carries every tool result.
            env["ORACLE_SCRIPT"] = json.dumps(
                [{"tool": "read", "args": {"filePath": os.path.join(ws, t)}}
                 for t in case["touch"]])
        cmd = [os.path.join(ORACLE, "opencode-capture.sh"), ws, sub, prompt]
    elif case["agent"] == "copilot":
        if case.get("trust"):
            env["ORACLE_TRUST"] = "1"
        if case.get("tui"):
            env["ORACLE_TUI"] = "1"
        if case.get("touch"):
            view = {"tool": "view", "args": {"path": os.path.join(ws, case["touch"])}}
            env["ORACLE_SCRIPT"] = json.dumps([view])
        cmd = [os.path.join(ORACLE, "copilot-capture.sh"), ws, sub, prompt]
    else:
        fail("unknown agent " + case["agent"])
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        if case.get("no_request"):
            return None
        fail("capture failed for %s:\n%s" % (case_dir, out.stderr))
    if case.get("no_request"):
        fail("a request was captured for %s, which expects none" % case_dir)
    return json.loads(out.stdout)


def mask(value, tmp):
    """Temp paths as <TREE> and <HOME>; the tree's project slug (auto-memory) as <TREE-SLUG>."""
    if isinstance(value, str):
        value = value.replace(tmp, "<TREE>").replace(project_slug(tmp), "<TREE-SLUG>")
        return HOME_RE.sub("<HOME>", value)
    if isinstance(value, list):
        return [mask(v, tmp) for v in value]
    if isinstance(value, dict):
        return {k: mask(v, tmp) for k, v in value.items()}
    return value


# --- Claude Code -------------------------------------------------------------------------

def claude_texts(body, role=None):
    for m in body.get("messages", []):
        if role and m["role"] != role:
            continue
        content = m["content"]
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        for part in content:
            if part.get("type") == "text":
                yield m["role"], part["text"]


# `Contents of PATH (LABEL):` opens a labelled part; `Contents of PATH:` an unlabelled one.
CONTENTS_RE = re.compile(r"(?:^|\n\n)Contents of (/[^\n]*?)(?: \(([^()\n]*)\))?:\n\n")


def scope_of(label):
    """The scope a part's label stands for, by keyword (the label's prose is not stored)."""
    if label is None:
        return None
    for keyword, scope in (("auto-memory", "auto-memory"), ("not checked in", "local"),
                           ("checked into", "project"), ("global", "user"),
                           ("managed", "managed"), ("policy", "managed")):
        if keyword in label:
            return scope
    fail("unknown label kind: " + label)


def claude_parts(text):
    """(path, scope, content) for every `Contents of` part of a reminder text."""
    body = text
    if body.startswith("<system-reminder>\n"):
        body = body[len("<system-reminder>\n"):]
    body = re.sub(r"\n*</system-reminder>\n*$", "", body)
    matches = list(CONTENTS_RE.finditer(body))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(body)
        yield m.group(1), scope_of(m.group(2)), body[m.end():end]


# Claude Code appends a warning paragraph of its own to a cut MEMORY.md; only the fact that
# it did is kept.
MEMORY_WARNING_RE = re.compile(r"\n\n> WARNING: [^\n]*$")


def extract_claude_instructions(body, case):
    parts, touch = [], []
    for role, text in claude_texts(body, "user"):
        if "Contents of " not in text:
            continue
        for path, scope, content in claude_parts(text):
            if scope is None:
                touch.append({"path": path, "content": content})
                continue
            part = {"path": path, "scope": scope, "content": content}
            if scope == "auto-memory":
                cut = MEMORY_WARNING_RE.search(content)
                part["content"] = content[:cut.start()] if cut else content
                part["truncated"] = bool(cut)
            parts.append(part)
    return {"parts": parts, "touch": touch}


COMMAND_RE = re.compile(
    r"<command-message>(.*?)</command-message>\n<command-name>/(.*?)</command-name>"
    r"(?:\n<command-args>(.*?)</command-args>)?", re.S)
READ_RE = re.compile(r'Called the Read tool with the following input: (\{.*?\})\n')


def listing_entries(body):
    for role, text in claude_texts(body, "system"):
        k = text.find("The following skills are")
        if k < 0:
            continue
        end = text.find("\n\nToday's date is", k)
        block = text[k:end if end > 0 else None]
        lines = block.split("\n\n", 1)[1] if "\n\n" in block else ""
        return ["- " + e for e in re.split(r"(?:^|\n)- ", lines) if e]
    return []


def entry_name(entry):
    """The name an entry lists: `- NAME` or `- NAME: DESCRIPTION` (a name may hold `:`)."""
    head = entry[2:].split("\n", 1)[0]
    return head.split(": ", 1)[0]


_BUNDLED = {}


def bundled_names(case):
    """Names in the listing of an empty workspace under the case's env: the agent's own
    entries. Compared by name, because an over-budget listing shortens entries differently
    when the custom ones are there."""
    key = json.dumps(case.get("env", {}), sort_keys=True)
    if key not in _BUNDLED:
        tmp = os.path.realpath(tempfile.mkdtemp(prefix="mp-oracle-empty-"))
        try:
            empty = {"agent": "claude", "env": case.get("env", {})}
            body = capture(tmp, empty, tmp, tmp)
            _BUNDLED[key] = {entry_name(e) for e in listing_entries(body)}
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return _BUNDLED[key]


def extract_claude_commands(body, case):
    texts = [t for _, t in claude_texts(body, "user")]
    command, expansion = None, None
    for i, t in enumerate(texts):
        m = COMMAND_RE.search(t)
        if m:
            command = {"name": m.group(2), "args": m.group(3)}
            if i + 1 < len(texts):
                expansion = texts[i + 1]
            break
    attachments = []
    for t in texts:
        for m in READ_RE.finditer(t):
            attachments.append(json.loads(m.group(1)).get("file_path"))
    bundled = bundled_names(case)
    entries = listing_entries(body)
    listing = [e for e in entries if entry_name(e) not in bundled]
    others = [e for e in entries if entry_name(e) in bundled]
    # The agent's own entries share the listing's budget: their count and display width as
    # sent (the budget counts width), so a replay can place the budget's cut.
    return {"command": command, "expansion": expansion, "attachments": attachments,
            "listing": listing,
            "listing_others": {"entries": len(others),
                               "width": sum(display_width(e) for e in others)}}


def display_width(text):
    """Terminal columns: East Asian wide and fullwidth characters 2, control and combining
    characters 0, others 1 (what the listing budget was observed to count)."""
    width = 0
    for c in text:
        if unicodedata.category(c) in ("Cc", "Mn", "Me") or c == "\u200b":
            continue
        width += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return width


# --- Codex -------------------------------------------------------------------------------

def codex_texts(body):
    items = body["input"] if isinstance(body, dict) else body
    for it in items:
        if it.get("type") != "message":
            continue
        for c in it.get("content") or []:
            if "text" in c:
                yield c["text"]


AGENTS_RE = re.compile(r"^# AGENTS\.md instructions(?: for [^\n]*)?\n\n<INSTRUCTIONS>\n(.*)\n</INSTRUCTIONS>$", re.S)
SEPARATOR = "\n\n--- project-doc ---\n\n"


def extract_codex(body, case):
    """The global and project texts between the AGENTS.md wrappers, the custom skill entries
    (bundled `.system` ones left out) with their root aliases expanded, and the `<skill>` blocks
    an exec run added, in the order sent (`null` when the run added none)."""
    out = {"global": None, "project": None, "skills": None, "skill_blocks": None}
    for t in codex_texts(body):
        m = AGENTS_RE.match(t)
        if m:
            inner = m.group(1)
            if SEPARATOR in inner:
                out["global"], out["project"] = inner.split(SEPARATOR, 1)
            elif t.startswith("# AGENTS.md instructions for "):
                out["project"] = inner
            else:
                out["global"] = inner
        elif t.startswith("<skills_instructions>"):
            roots = dict(re.findall(r"^- `(r\d+)` = `([^`]*)`$", t, re.M))
            skills = []
            for name, desc, root, rest in re.findall(
                    r"^- ([^:\n]+): (.*) \(file: (r\d+)/([^)\n]*)\)$", t, re.M):
                base = roots.get(root, root)
                if base.rstrip("/").endswith("/.system"):
                    continue
                skills.append({"name": name, "description": desc, "path": base + "/" + rest})
            out["skills"] = skills
        elif t.startswith("<skill>\n"):
            out["skill_blocks"] = (out["skill_blocks"] or []) + [t]
    return out


# --- Gemini CLI --------------------------------------------------------------------------

GEMINI_NEW_OPEN = "\n\n--- Newly Discovered Project Context ---\n"
GEMINI_NEW_CLOSE = "\n--- End Project Context ---"
GEMINI_PROJECT_OPEN = "<loaded_context>\n<project_context>\n"
GEMINI_PROJECT_CLOSE = "\n</project_context>\n</loaded_context>"
GEMINI_USER_OPEN = "<loaded_context>\n"
GEMINI_USER_CLOSE = "\n</loaded_context>"


def extract_gemini(body, case):
    """The project context (between its wrappers in the first user turn) and the user
    context (the `<loaded_context>` that ends the system instruction), `null` when absent:
    only the context files' blocks, never Gemini's own prose."""
    out = {"user": None, "project": None}
    first = "".join(p.get("text", "") for p in body["contents"][0]["parts"])
    i = first.find(GEMINI_PROJECT_OPEN)
    if i >= 0:
        j = first.rfind(GEMINI_PROJECT_CLOSE)
        out["project"] = first[i + len(GEMINI_PROJECT_OPEN):j]
    system = "".join(p.get("text", "") for p in body["systemInstruction"]["parts"])
    if system.endswith(GEMINI_USER_CLOSE):
        i = system.rfind(GEMINI_USER_OPEN)
        out["user"] = system[i + len(GEMINI_USER_OPEN):-len(GEMINI_USER_CLOSE)]
    if case.get("touch"):
        # The prompt's `@path` makes Gemini read the file, and the context files it
        # discovers on the way arrive as one more part of the user turn.
        out["touch"] = None
        for content in body["contents"]:
            for part in content.get("parts", []):
                text = part.get("text", "")
                if text.startswith(GEMINI_NEW_OPEN) and text.endswith(GEMINI_NEW_CLOSE):
                    out["touch"] = text[len(GEMINI_NEW_OPEN):-len(GEMINI_NEW_CLOSE)]
    return out


AGENTS_HEADER = "Available agent types for the Agent tool:\n"


def agent_entries(body):
    """The entries of Claude Code's subagents listing (`- NAME: DESCRIPTION (Tools: T)`, a
    description may span lines), in its order."""
    for _, text in claude_texts(body):
        i = text.find(AGENTS_HEADER)
        if i < 0:
            continue
        block = text[i + len(AGENTS_HEADER):].split("\n\n", 1)[0]
        return ["- " + e for e in ("\n" + block).split("\n- ")[1:]]
    return []


_BUILT_IN_AGENTS = []


def extract_claude_subagents(body, case):
    """The listing's entries less those of an empty workspace's listing (Claude Code's
    built-in agents, compared entry by entry, so a custom agent named like a built-in stays)."""
    if not _BUILT_IN_AGENTS:
        tmp = os.path.realpath(tempfile.mkdtemp(prefix="mp-oracle-empty-"))
        try:
            empty = {"agent": "claude", "env": case.get("env", {})}
            _BUILT_IN_AGENTS.extend(agent_entries(capture(tmp, empty, tmp, tmp)))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return {"listing": [e for e in agent_entries(body) if e not in _BUILT_IN_AGENTS]}


STYLE_HEAD = "# Output Style: "


def extract_claude_output_style(body, case):
    """The output style's block: from `# Output Style: ` to the blank line after it (the
    cases' bodies hold no blank line), `null` when none was sent."""
    for _, text in claude_texts(body):
        i = text.find(STYLE_HEAD)
        if i >= 0:
            return {"output_style": text[i:].split("\n\n", 1)[0]}
    return {"output_style": None}


def claude_system_message(body):
    """The text of Claude Code's system message (the `system` role message after the first
    user turn, where the environment, listings and hook paragraphs go)."""
    for role, text in claude_texts(body, "system"):
        return text
    fail("no system message in the request")


# A hook's paragraph: `EVENT[:SOURCE] hook success: OUTPUT` or
# `EVENT hook additional context: TEXT`, up to the next blank line.
HOOK_RE = re.compile(r"(?:^|(?<=\n\n))((\w+)(?::\w+)? hook (?:success|additional context): )"
                     r"(.*?)(?=\n\n|$)", re.S)
ENVIRONMENT_HEAD = "# Environment\n"
SKILLS_HEAD = "The following skills are available for use with the Skill tool"


def extract_claude_hooks(body, case):
    """Every hook paragraph of the system message: its event, the prefix up to the output
    (a wire marker), the output, and where it sits: `start` (before the environment section,
    at the very start of the message), `after-skills` (after the skills listing) or `other`;
    sorted by place (`start` first), then output."""
    text = claude_system_message(body)
    env = text.find(ENVIRONMENT_HEAD)
    skills = text.find(SKILLS_HEAD)
    paragraphs = []
    for m in HOOK_RE.finditer(text):
        if env >= 0 and m.start() < env:
            place = "start"
        elif 0 <= skills < m.start():
            place = "after-skills"
        else:
            place = "other"
        paragraphs.append({"event": m.group(2), "prefix": m.group(1), "output": m.group(3),
                           "place": place})
    # Several SessionStart hooks run in parallel and their paragraphs come in completion
    # order, which changes from run to run: sorted within each place, so a re-recording is
    # stable.
    paragraphs.sort(key=lambda p: (p["place"] != "start", p["output"]))
    return {"paragraphs": paragraphs}


MCP_TOOL_RE = re.compile(r"^mcp__[^\s]+$", re.M)
MCP_FAILED_RE = re.compile(r"^([^\s()]+) \(([A-Z_]+)\): ", re.M)
MCP_INSTRUCTIONS_HEAD = "# MCP Server Instructions"


def extract_claude_mcp(body, case):
    """The MCP facts of the system message: the `mcp__…` names of the deferred-tools list,
    whether any of them also came with a schema in the request's tools, the servers listed as
    failed to connect (name and error code, not the message), and the servers' instructions
    (`## NAME` blocks under their heading), with whether that section precedes the skills
    listing."""
    text = claude_system_message(body)
    tools = MCP_TOOL_RE.findall(text)
    schemas = [t["name"] for t in body.get("tools", []) if t.get("name", "").startswith("mcp__")]
    failed = [{"name": m.group(1), "code": m.group(2)} for m in MCP_FAILED_RE.finditer(text)]
    instructions, before_skills = {}, None
    i = text.find(MCP_INSTRUCTIONS_HEAD + "\n")
    if i >= 0:
        blocks = text[i:].split("\n\n")[2:]
        for block in blocks:
            if not block.startswith("## "):
                break
            name, _, content = block[3:].partition("\n")
            instructions[name] = content
        skills = text.find(SKILLS_HEAD)
        before_skills = skills > i
    return {"deferred_tools": tools, "schemas_sent": schemas, "failed": failed,
            "instructions_heading": MCP_INSTRUCTIONS_HEAD if i >= 0 else None,
            "instructions": instructions, "instructions_before_skills": before_skills}


GEMINI_INSTRUCTIONS_RE = re.compile(
    r"'([^'\n]+)':\n---\[start of server instructions\]---\n(.*?)\n---\[end of server instructions\]---",
    re.S)


def extract_gemini_mcp(body, case):
    """The MCP facts of Gemini's request: each server's instructions in the first user
    message (name -> text, in order, from the `---[start of server instructions]---` blocks)
    and the `mcp_` function declarations (name, and whether a schema came with it)."""
    first = body["contents"][0]
    text = "".join(p.get("text", "") for p in first["parts"])
    instructions = [{"server": m.group(1), "text": m.group(2)}
                    for m in GEMINI_INSTRUCTIONS_RE.finditer(text)]
    tools = [{"name": d["name"], "schema": "parametersJsonSchema" in d or "parameters" in d}
             for t in body.get("tools", []) for d in t.get("functionDeclarations", [])
             if d["name"].startswith("mcp_")]
    return {"instructions": instructions, "tools": tools}


OPENCODE_SERVER_RE = re.compile(r'^  <server name="([^"]*)">\n(.*?)\n  </server>$', re.M | re.S)
_BUILT_IN_OPENCODE_TOOLS = []


def extract_opencode_mcp(body, case):
    """The MCP facts of opencode's request: each server's instructions of the system message's
    `<mcp_instructions>` block (server -> text, the block's 4-space indent removed, in order),
    and the request's tools less those of an empty workspace's request (opencode's own), each
    with its schema."""
    if not _BUILT_IN_OPENCODE_TOOLS:
        tmp = os.path.realpath(tempfile.mkdtemp(prefix="mp-oracle-empty-"))
        try:
            empty = {"agent": "opencode", "env": case.get("env", {})}
            _BUILT_IN_OPENCODE_TOOLS.extend(
                t["function"]["name"] for t in capture(tmp, empty, tmp, tmp)["tools"])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    system = body["messages"][0]["content"]
    instructions = []
    i = system.find("<mcp_instructions>\n")
    j = system.find("\n</mcp_instructions>", i)
    if i >= 0 and j > i:
        for m in OPENCODE_SERVER_RE.finditer(system[i:j + 1]):
            text = "\n".join(line[4:] if line.startswith("    ") else line
                             for line in m.group(2).split("\n"))
            instructions.append({"server": m.group(1), "text": text})
    tools = [{"name": t["function"]["name"], "parameters": t["function"].get("parameters")}
             for t in body.get("tools", [])
             if t["function"]["name"] not in _BUILT_IN_OPENCODE_TOOLS]
    return {"instructions": instructions, "tools": tools}


CODEX_NAMESPACES_RE = re.compile(r"^<tools>\nDeferred tool namespaces:\n(.*)\n</tools>$", re.S)


def extract_codex_mcp(body, case):
    """The `- NAMESPACE: INSTRUCTIONS` lines of Codex's `Deferred tool namespaces:` block
    (`<tools>` … `</tools>`), and the names of any `mcp__` tools of the request's tools."""
    namespaces = []
    for text in codex_texts(body):
        m = CODEX_NAMESPACES_RE.match(text)
        if m:
            for line in m.group(1).split("\n"):
                namespace, _, instructions = line.removeprefix("- ").partition(": ")
                namespaces.append({"namespace": namespace, "instructions": instructions})
    tools = body.get("tools", []) if isinstance(body, dict) else []
    return {"namespaces": namespaces,
            "tools": [t.get("name") for t in tools if str(t.get("name")).startswith("mcp__")]}


SKILL_RE = re.compile(r"  <skill>\n    <name>.*?</name>\n    <description>.*?</description>\n"
                      r"    <location>(.*?)</location>\n  </skill>", re.S)


def extract_gemini_commands(body, case):
    """What a typed `/name args` line sends (the parts of the first user turn after Gemini's
    session context), the custom entries of the `<available_skills>` block (Gemini's bundled
    ones, under its `bundle/builtin/`, left out; `null` when there is no block), and with
    `record_system` the system instruction up to Gemini's first own heading (`\n\n# `).
    A case with `no_request` expects Gemini to send nothing: `{"sent": false}`, and whether
    its `marker` file exists afterwards."""
    if body is None:
        return {"sent": False}
    parts = body["contents"][0]["parts"]
    texts = [p.get("text") for p in parts if not p.get("text", "").startswith("<session_context>")]
    system = "".join(p.get("text", "") for p in body["systemInstruction"]["parts"])
    skills = None
    i = system.find("<available_skills>\n")
    if i >= 0:
        j = system.find("\n</available_skills>", i)
        skills = [m.group(0) for m in SKILL_RE.finditer(system[i:j])
                  if "/bundle/builtin/" not in m.group(1)]
    out = {"sent": True, "parts": texts, "skills": skills}
    if case.get("record_system"):
        k = system.find("\n\n# ")
        out["system"] = system if k < 0 else system[:k]


# --- opencode ----------------------------------------------------------------------------

OPENCODE_MARK = "Instructions from: "
OPENCODE_REMINDER_OPEN = "\n\n<system-reminder>\n"
OPENCODE_REMINDER_CLOSE = "\n</system-reminder>"


def extract_opencode(body, case):
    """The instructions region of the system message (from the first `Instructions from: `
    that follows the `<env>` block up to the `\n` before the skills paragraph), `null` when
    absent, and for each `read` tool result the `<system-reminder>` text opencode appended
    (`""` when it appended none): only the files' blocks, never opencode's prose."""
    out = {"instructions": None, "touch": []}
    system = body["messages"][0]["content"]
    if isinstance(system, list):
        system = "".join(p.get("text", "") for p in system)
    env_end = system.find("</env>\n")
    start = system.find(OPENCODE_MARK, env_end if env_end >= 0 else 0)
    if start >= 0:
        end = system.rfind("\nSkills provide ")
        out["instructions"] = system[start:end if end > start else None]
    for m in body["messages"]:
        if m["role"] != "tool":
            continue
        content = m["content"]
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content)
        i = content.find(OPENCODE_REMINDER_OPEN)
        out["touch"].append(content[i:] if i >= 0 else "")
    return out


OPENCODE_AGENTS_OPEN = "Available agent types and the tools they have access to:\n"
OPENCODE_BUILT_IN_AGENTS = ("explore", "general")


def extract_opencode_commands(body, case):
    """What a typed `/name args` line sends (the last user message: its first text part as
    `expansion`, and how many parts opencode added after it, e.g. an attached file's read
    output, as `extra_parts`), the `<available_skills>` entries other than opencode's built-in
    skill, and the repository's lines of the `task` tool's agent list (opencode's built-in
    agents left out), joined by `\n` as sent."""
    users = [m for m in body["messages"] if m["role"] == "user"]
    content = users[-1]["content"] if users else ""
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    texts = [p.get("text", "") for p in content if p.get("type") == "text"]
    out = {"expansion": texts[0] if texts else None, "extra_parts": max(len(content) - 1, 0)}
    system = body["messages"][0]["content"]
    if isinstance(system, list):
        system = "".join(p.get("text", "") for p in system)
    i = system.find("<available_skills>\n")
    skills = []
    if i >= 0:
        j = system.find("\n</available_skills>", i)
        skills = [m.group(0) for m in SKILL_RE.finditer(system[i:j])
                  if m.group(1) != "&lt;built-in&gt;"]
    out["skills"] = skills
    task = [t["function"]["description"] for t in body.get("tools", [])
            if t.get("function", {}).get("name") == "task"]
    agents = None
    if task and OPENCODE_AGENTS_OPEN in task[0]:
        listing = task[0].split(OPENCODE_AGENTS_OPEN, 1)[1]
        entries = re.split(r"\n(?=- )", listing)
        agents = "\n".join(e for e in entries
                           if not e.startswith(tuple("- %s: " % n for n in OPENCODE_BUILT_IN_AGENTS)))
    out["subagents"] = agents
    return out


# --- GitHub Copilot CLI ------------------------------------------------------------------

COPILOT_REGION_OPEN = "</tools>\n"
COPILOT_REGION_CLOSE = "<system_notifications>"
COPILOT_AGENTS_OPEN = "User-provided custom agents:\n"


def extract_copilot(body, case):
    """The instruction region of the system message: everything between `</tools>\n` and
    `<system_notifications>` (the custom instructions, raw path-specific files and the applyTo
    table as sent, never Copilot's own prompt around them); with `touch`, the user message of
    reminders that viewing that file added."""
    system = body["messages"][0]["content"]
    if isinstance(system, list):
        system = "".join(p.get("text", "") for p in system)
    i = system.index(COPILOT_REGION_OPEN) + len(COPILOT_REGION_OPEN)
    j = system.index(COPILOT_REGION_CLOSE, i)
    out = {"region": system[i:j]}
    if case.get("trust"):
        # The listing's entries, Copilot's own built-in skills left out.
        k = system.find("<available_skills>\n")
        listing = system[k:system.index("\n</available_skills>", k)] if k >= 0 else ""
        out["skills"] = [b for b in re.findall(r"<skill>\n.*?\n</skill>", listing, re.S)
                         if "<location>builtin</location>" not in b]
    if case.get("agents"):
        # The custom agents Copilot lists in its `task` tool's description, after its heading.
        out["agents"] = ""
        for tool in body.get("tools", []):
            if tool.get("function", {}).get("name") == "task":
                text = tool["function"]["description"]
                k = text.find(COPILOT_AGENTS_OPEN)
                out["agents"] = text[k + len(COPILOT_AGENTS_OPEN):] if k >= 0 else ""
    if case.get("tui") or case.get("print"):
        # The message for the typed line (interactive session, or `-p` with `print`), its date
        # line left out.
        users = [m for m in body["messages"] if m["role"] == "user"]
        text = users[-1]["content"]
        if isinstance(text, list):
            text = "".join(p.get("text", "") for p in text)
        out["expansion"] = re.sub(r"^<current_datetime>[^<]*</current_datetime>\n\n", "", text)
    if case.get("touch"):
        # The view's reminders: the user message after the tool's result.
        last = body["messages"][-1]
        out["touch"] = last["content"] if last["role"] == "user" else None
    return out


EXTRACT = {
    "gemini-commands": extract_gemini_commands,
    "claude-instructions": extract_claude_instructions,
    "claude-output-style": extract_claude_output_style,
    "claude-subagents": extract_claude_subagents,
    "claude-hooks": extract_claude_hooks,
    "claude-mcp": extract_claude_mcp,
    "claude-commands": extract_claude_commands,
    "codex": extract_codex,
    "codex-mcp": extract_codex_mcp,
    "gemini": extract_gemini,
    "gemini-mcp": extract_gemini_mcp,
    "opencode": extract_opencode,
    "opencode-commands": extract_opencode_commands,
    "opencode-mcp": extract_opencode_mcp,
    "copilot": extract_copilot,
}


def record(case_dir, show, raw=False):
    with open(os.path.join(case_dir, "case.json")) as f:
        case = json.load(f)
    group = os.path.relpath(case_dir, CASES).split(os.sep)[0]
    if group not in EXTRACT:
        fail("unknown group " + group)
    tmp, ws, cwd = prepare(case_dir, case)
    home = home_fixture(case_dir, case, tmp)
    try:
        body = capture(case_dir, case, ws, cwd, home)
        expected = mask(body if raw else EXTRACT[group](body, case), tmp)
        if case.get("marker"):
            expected["marker_exists"] = os.path.exists(os.path.join(cwd, case["marker"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if home and case.get("auto_memory"):
            shutil.rmtree(home, ignore_errors=True)
    text = json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    if show or raw:
        sys.stdout.write(text)
    else:
        with open(os.path.join(case_dir, "expected.json"), "w") as f:
            f.write(text)
        print("recorded", os.path.relpath(case_dir, CASES))


def main():
    args = sys.argv[1:]
    show, raw = "--print" in args, "--raw" in args
    args = [a for a in args if a not in ("--print", "--raw")]
    if not args:
        fail(__doc__)
    for arg in args:
        for case_dir in case_dirs(arg):
            record(case_dir, show, raw)


if __name__ == "__main__":
    main()
