//! The MCP server's line reader and dispatcher (SPEC §21.2) on arbitrary input: never a
//! panic, every line it writes is one JSON-RPC message, and no more answers than lines
//! came in (a notification or a blank line gets none).

#![no_main]

use clap::Parser;
use libfuzzer_sys::fuzz_target;
use mecatl_prompt::cli::Cli;
use mecatl_prompt::cli::mcp::Server;

fuzz_target!(|raw: &[u8]| {
    let Ok(cli) = Cli::try_parse_from(["mecatl-prompt", "mcp"]) else { return };
    // A start directory that does not exist: a tool call is refused before it reads.
    let mut server = Server::new(cli.global, "/nonexistent/mecatl-prompt-fuzz".into());
    let mut out = Vec::new();
    server.serve(&mut &raw[..], &mut out).expect("in-memory input and output");
    let lines_in = raw.split(|&b| b == b'\n').count();
    let lines_out: Vec<&[u8]> = out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    assert!(lines_out.len() <= lines_in);
    for line in lines_out {
        let message: serde_json::Value = serde_json::from_slice(line).expect("JSON");
        assert_eq!(message["jsonrpc"], "2.0");
    }
});
