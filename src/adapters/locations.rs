//! Where user-tier files live (SPEC §3.2).
