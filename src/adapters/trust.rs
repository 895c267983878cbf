//! Workspace trust (SPEC §3.4).
