//! The providers' request shapes (SPEC §8.3): `--format anthropic` and
//! `--format openai` for `build` (the system prompt) and `assemble` (the
//! turn-0 messages), so the two halves merge into one request body.

use serde::Serialize;

use crate::prompt::build::Layered;

/// One Anthropic text block.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct TextBlock<'a> {
    #[cfg_attr(test, schemars(extend("const" = "text")))]
    r#type: &'static str,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

impl<'a> TextBlock<'a> {
    fn text(text: &'a str) -> Self {
        Self {
            r#type: "text",
            text,
            cache_control: None,
        }
    }
}

/// An Anthropic cache breakpoint.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct CacheControl {
    #[cfg_attr(test, schemars(extend("const" = "ephemeral")))]
    r#type: &'static str,
}

/// The Anthropic `system` array.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct AnthropicSystem<'a> {
    system: Vec<TextBlock<'a>>,
}

/// One Anthropic message holding text blocks.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct AnthropicMessage<'a> {
    #[cfg_attr(test, schemars(extend("const" = "user")))]
    role: &'static str,
    content: Vec<TextBlock<'a>>,
}

/// One OpenAI Chat Completions message.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct OpenAiMessage<'a> {
    #[cfg_attr(test, schemars(extend("enum" = ["system", "user"])))]
    role: &'static str,
    content: &'a str,
}

/// A `messages` array, the shape both providers take.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Messages<T> {
    messages: Vec<T>,
}

/// The Anthropic `system` blocks: the prefix carries the cache breakpoint;
/// an empty side is left out, since the API rejects empty text blocks.
pub fn anthropic_system(layered: &Layered) -> AnthropicSystem<'_> {
    let mut system = Vec::new();
    if !layered.stable_prefix.is_empty() {
        system.push(TextBlock {
            cache_control: Some(CacheControl {
                r#type: "ephemeral",
            }),
            ..TextBlock::text(&layered.stable_prefix)
        });
    }
    if !layered.volatile_suffix.is_empty() {
        system.push(TextBlock::text(&layered.volatile_suffix));
    }
    AnthropicSystem { system }
}

/// One Anthropic user message per text.
pub fn anthropic_user_messages<'a>(
    texts: impl IntoIterator<Item = &'a str>,
) -> Messages<AnthropicMessage<'a>> {
    anthropic_block_messages(texts.into_iter().map(|text| vec![text]))
}

/// One Anthropic user message per list of texts, one text block per text
/// (an agent profile's parts, SPEC §14.7).
pub fn anthropic_block_messages<'a>(
    messages: impl IntoIterator<Item = Vec<&'a str>>,
) -> Messages<AnthropicMessage<'a>> {
    Messages {
        messages: messages
            .into_iter()
            .map(|texts| AnthropicMessage {
                role: "user",
                content: texts.into_iter().map(TextBlock::text).collect(),
            })
            .collect(),
    }
}

/// One OpenAI message with `role` per text.
pub fn openai_messages<'a>(
    role: &'static str,
    texts: impl IntoIterator<Item = &'a str>,
) -> Messages<OpenAiMessage<'a>> {
    Messages {
        messages: texts
            .into_iter()
            .map(|content| OpenAiMessage { role, content })
            .collect(),
    }
}
