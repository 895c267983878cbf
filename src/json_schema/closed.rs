//! Schemas for types whose `Serialize` is written by hand: closed objects
//! of listed properties. A leaf the documents' own modules use, so that
//! the list of every document (the parent module) is the only one that
//! names them.

use schemars::{Schema, json_schema};

/// The schema of an object whose every property is always present and
/// which has no other: the shape of a hand-written `Serialize` impl.
pub(crate) fn closed_object(description: &str, properties: Vec<(&str, Schema)>) -> Schema {
    let required: Vec<&str> = properties.iter().map(|(name, _)| *name).collect();
    let properties: serde_json::Map<String, serde_json::Value> = properties
        .into_iter()
        .map(|(name, schema)| (name.to_string(), schema.to_value()))
        .collect();
    json_schema!({
        "description": description,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// `JsonSchema` for a type whose `Serialize` is written by hand: a
/// [`closed_object`] of the listed properties, each given as
/// `"name": Type` (that type's schema), `"name" = "description"` (a
/// string) or `"name" => ["word", …]` (one of those strings).
macro_rules! closed_schema {
    ($type:ident $(<$lifetime:lifetime>)?, $description:literal, {
        $($name:literal $(: $ty:ty)? $(= $text:literal)? $(=> [$($word:literal),+])?),+ $(,)?
    }) => {
        impl schemars::JsonSchema for $type $(<$lifetime>)? {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($type).into()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                $crate::json_schema::closed::closed_object(
                    $description,
                    vec![$((
                        $name,
                        $crate::json_schema::closed::closed_schema!(
                            @field generator $(: $ty)? $(= $text)? $(=> [$($word),+])?
                        ),
                    )),+],
                )
            }
        }
    };
    (@field $generator:ident : $ty:ty) => {
        $generator.subschema_for::<$ty>()
    };
    (@field $generator:ident = $text:literal) => {
        schemars::json_schema!({"type": "string", "description": $text})
    };
    (@field $generator:ident => [$($word:literal),+]) => {
        schemars::json_schema!({"enum": [$($word),+]})
    };
}
pub(crate) use closed_schema;
