//! The JSON Schemas of every JSON document the binary prints (SPEC §15.5),
//! generated from the Rust types that serialise them and kept under
//! `schemas/` by a test.
//!
//! Choices the spec leaves open:
//! - schemars is a dev-dependency and every `JsonSchema` derive or impl is
//!   `cfg(test)`: the schemas are files in the repository, so the shipped
//!   binary carries nothing of it;
//! - one file per document shape: a document whose rows differ by profile
//!   (`rules list`, `assemble`) has one file per shape,
//!   named after the profiles it serves; the providers' request bodies
//!   (SPEC §8.3) have theirs too, SARIF keeps the official schema;
//! - each file names its document and the `schema` tag its documents carry
//!   in `title`;
//! - every object is closed (`additionalProperties: false`): a document
//!   holds exactly the fields this version prints, and a field added to a
//!   hand-written `Serialize` impl and not to its schema fails the
//!   validation of real outputs; only free-form maps (frontmatter) stay
//!   open;
//! - a file the binary reads that has no schema of its own
//!   (`.mecatl-prompt.toml`) gets one too, from the type it is read into,
//!   for deserialisation (defaulted fields optional, no `null`, which TOML
//!   lacks): editors validate TOML against it;
//! - `UPDATE_SCHEMAS=1 cargo test --lib json_schema` rewrites the files.

pub(crate) mod closed;

use schemars::Schema;

/// One JSON document the binary prints: its file under `schemas/`, the
/// command lines that print it, the `schema` tag it carries, and the type
/// it is serialised from.
struct Document {
    /// The file name under `schemas/`, without `.json`.
    file: &'static str,
    /// The command lines that print it (or, for a file the binary only
    /// reads, what the file is).
    printed_by: &'static str,
    /// The `schema` tag of the documents (the providers' shapes have none).
    tag: Option<&'static str>,
    /// Its schema, from the type that serialises it.
    schema: fn() -> Schema,
}

/// The schema of `T` as it serialises, draft 2020-12, every object closed.
fn schema_of<T: schemars::JsonSchema>() -> Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(close_objects)
        .into_generator()
        .into_root_schema_for::<T>()
}

/// The schema of a file `T` is read from (its defaulted and optional
/// fields not required, never `null`, which TOML lacks), draft 2020-12,
/// every object closed.
fn schema_of_input<T: schemars::JsonSchema>() -> Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_deserialize()
        .with_transform(close_objects)
        .with_transform(no_null)
        .into_generator()
        .into_root_schema_for::<T>()
}

/// Takes `null` out of every `type` list: an optional field of a TOML file
/// is absent, never `null`.
fn no_null(schema: &mut Schema) {
    if let Some(serde_json::Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            schema.insert("type".into(), only);
        }
    }
    schemars::transform::transform_subschemas(&mut no_null, schema);
}

/// Closes every object schema that lists its properties and says nothing
/// of others: a document holds exactly the fields its type serialises, so
/// a field the schema does not know is an error (the open objects, such as
/// a frontmatter's keys, list no properties and stay open).
fn close_objects(schema: &mut Schema) {
    if schema.get("properties").is_some() && schema.get("additionalProperties").is_none() {
        schema.insert("additionalProperties".into(), false.into());
    }
    schemars::transform::transform_subschemas(&mut close_objects, schema);
}

/// Every JSON document the binary prints, one line each: its file, the
/// type that serialises it, the command lines that print it, and its
/// `schema` tag when that is not `mecatl-prompt/v1` (`None` for the
/// providers' shapes, which carry none); then the files it reads that
/// have no other schema (lint's configuration, whose TOML editors
/// validate against a JSON Schema).
fn documents() -> Vec<Document> {
    use crate::cli::output::SCHEMA;
    use crate::cli::provider::{AnthropicMessage, AnthropicSystem, Messages, OpenAiMessage};
    use crate::cli::{assemble, build, check, commands, compare, expand, explain, lint, manifest};
    use crate::cli::{parts, rules};
    type Rules<R> = rules::ListDocument<'static, R>;
    type ProfileRule = &'static crate::prompt::profile::ProfileRule;
    macro_rules! documents {
        ($($file:literal => $ty:ty, $printed_by:literal $(, $tag:expr)?;)+) => {
            vec![$(Document {
                file: $file,
                printed_by: $printed_by,
                tag: documents!(@tag $($tag)?),
                schema: schema_of::<$ty>,
            }),+]
        };
        (@tag) => { Some(SCHEMA) };
        (@tag $tag:expr) => { $tag };
    }
    let mut documents = documents![
        "build" => build::BuildDocument<'static>, "build --format json";
        "build-check-stable" => build::CheckStableDocument<'static>,
            "build --check-stable --format json";
        "expand" => expand::ExpandDocument<'static>, "expand --format json";
        "commands-list" => commands::ListDocument<'static>,
            "commands list [--agent NAME] --format json";
        "rules-list" => Rules<rules::RuleEntry<'static>>, "rules list [--for PATH] --format json";
        "rules-list-profile" => Rules<ProfileRule>, "rules list --agent claude|codex --format json";
        "assemble" => assemble::AssembleDocument<'static>, "assemble [--stats] --format json";
        "assemble-profile" => parts::ProfileDocument<'static>,
            "assemble --agent claude|codex [--touch PATH] [--stats] --format json";
        "explain" => explain::ExplainDocument<'static>, "explain NAME|PATH --format json";
        "snapshot" => manifest::Manifest, "snapshot (the manifest check --against reads)",
            Some(manifest::SNAPSHOT_SCHEMA);
        "check" => check::CheckDocument<'static>, "check --against FILE --format json";
        "lint" => lint::LintDocument<'static>, "lint --format json";
        "compare" => compare::CompareDocument<'static>, "compare [--diff A,B] --format json";
        "anthropic-system" => AnthropicSystem<'static>, "build --format anthropic", None;
        "anthropic-messages" => Messages<AnthropicMessage<'static>>, "assemble --format anthropic",
            None;
        "openai-messages" => Messages<OpenAiMessage<'static>>,
            "build --format openai, assemble --format openai", None;
        "lint-baseline" => crate::prompt::lint::policy::Baseline,
            "lint --write-baseline FILE (the baseline lint --baseline FILE reads)",
            Some(crate::prompt::lint::policy::BASELINE_SCHEMA);
    ];
    documents.push(Document {
        file: "mecatl-prompt-toml",
        printed_by: "lint configuration, .mecatl-prompt.toml at the workspace root",
        tag: None,
        schema: schema_of_input::<crate::prompt::lint::policy::ConfigFile>,
    });
    documents
}

/// The file text of `document`'s schema: titled with the command lines
/// that print it and its tag, pretty-printed with one trailing `\n`.
fn file_text(document: &Document) -> String {
    let mut schema = (document.schema)();
    let title = match document.tag {
        Some(tag) => format!("mecatl-prompt {} ({tag})", document.printed_by),
        None => format!("mecatl-prompt {}", document.printed_by),
    };
    schema.insert("title".into(), title.into());
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn schema_files_are_fresh() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
        let update = std::env::var_os("UPDATE_SCHEMAS").is_some_and(|v| v == "1");
        let documents = documents();
        let mut stale = Vec::new();
        for document in &documents {
            let path = dir.join(format!("{}.json", document.file));
            let fresh = file_text(document);
            if std::fs::read_to_string(&path).ok().as_deref() == Some(fresh.as_str()) {
                continue;
            }
            if update {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, fresh).unwrap();
            } else {
                stale.push(document.file);
            }
        }
        assert!(
            stale.is_empty(),
            "stale schemas {stale:?}: run UPDATE_SCHEMAS=1 cargo test --lib json_schema"
        );
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut expected: Vec<String> = documents
            .iter()
            .map(|d| format!("{}.json", d.file))
            .collect();
        expected.sort();
        assert_eq!(
            on_disk, expected,
            "schemas/ holds exactly one file per document"
        );
    }
}
