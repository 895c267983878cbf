//! Bounded child processes: a program run with a deadline and an output
//! cap, its stdout read concurrently and the child killed when either bound
//! is passed. Shared by the git adapter and `--builder-cmd`; no shell runs.

use std::io::{self, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// How long a child process may run and how much it may print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The child is killed when it has not exited after this long.
    pub timeout: Duration,
    /// The child is killed when its stdout exceeds this many bytes.
    pub max_output: usize,
}

/// How a bounded child process ended.
#[derive(Debug)]
pub enum Finished {
    /// The child exited by itself within the bounds.
    Exited {
        /// Its exit status.
        status: ExitStatus,
        /// Everything it printed on stdout.
        stdout: Vec<u8>,
    },
    /// The child printed more than the cap and was killed.
    Oversize {
        /// The first `max_output` bytes it printed.
        stdout: Vec<u8>,
    },
    /// The child ran past the timeout and was killed.
    TimedOut,
}

/// Runs `command` within `bounds`: stdin receives `input` and is then
/// closed (or is null without input), stdout is read concurrently, and the
/// child is killed once the timeout passes or stdout exceeds the cap. The
/// caller decides where stderr goes. An error means the child could not be
/// started or its output could not be read.
pub fn run_bounded(
    mut command: Command,
    input: Option<Vec<u8>>,
    bounds: Bounds,
) -> io::Result<Finished> {
    let deadline = Instant::now() + bounds.timeout;
    command.stdout(Stdio::piped()).stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = command.spawn()?;

    // Writing happens on its own thread so a child that never reads stdin
    // cannot block us past the deadline; a child that exits without reading
    // makes the write fail, which is its own business.
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }

    let Some(stdout) = child.stdout.take() else {
        kill(&mut child);
        return Err(io::Error::other("the child's stdout was not captured"));
    };
    let (sender, receiver) = mpsc::sync_channel(1);
    let cap = bounds.max_output as u64 + 1;
    thread::spawn(move || {
        let mut output = Vec::new();
        let read = stdout.take(cap).read_to_end(&mut output).map(|_| output);
        let _ = sender.send(read);
    });

    let mut stdout = match receiver.recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        Ok(Ok(output)) => output,
        Ok(Err(error)) => {
            kill(&mut child);
            return Err(error);
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            kill(&mut child);
            return Ok(Finished::TimedOut);
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            kill(&mut child);
            return Err(io::Error::other("the child's output reader stopped"));
        }
    };
    if stdout.len() > bounds.max_output {
        kill(&mut child);
        stdout.truncate(bounds.max_output);
        return Ok(Finished::Oversize { stdout });
    }
    match wait_until(&mut child, deadline)? {
        Some(status) => Ok(Finished::Exited { status, stdout }),
        None => {
            kill(&mut child);
            Ok(Finished::TimedOut)
        }
    }
}

/// Waits for the child to exit until `deadline`; `None` when it is still
/// running then. Polls with a short, growing pause: the child has already
/// closed its stdout, so it is almost always exiting.
fn wait_until(child: &mut Child, deadline: Instant) -> io::Result<Option<ExitStatus>> {
    let mut pause = Duration::from_micros(100);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        thread::sleep(pause.min(left));
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

/// Kills the child and reaps it, ignoring a child that already exited.
fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}
