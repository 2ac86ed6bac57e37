//! protocol/openapi.json as the daemon's tests hold its answers to it: each answer's
//! status, content type and JSON body (validated with the document's schemas, as JSON
//! Schema 2020-12). Included by the test binaries that call the daemon's routes.

use serde_json::{json, Value};

/// protocol/openapi.json, read.
pub fn openapi() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol/openapi.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A schema of the OpenAPI document as a JSON Schema 2020-12 document of its own: the
/// components' schemas become its `$defs`.
pub fn validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let local = |v: &Value| -> Value {
        serde_json::from_str(&v.to_string().replace("#/components/schemas/", "#/$defs/")).unwrap()
    };
    let mut root = local(schema);
    root["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    root["$defs"] = local(&doc["components"]["schemas"]);
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

/// Checks one answer against the document: its status is declared for the operation, its
/// content type is the declared one, and a JSON body validates against the declared schema.
pub fn check_answer(doc: &Value, method: &str, template: &str, answer: &(u16, String, String)) {
    let (status, head, body) = answer;
    let what = format!("{method} {template} -> {status}");
    let operation = &doc["paths"][template][method.to_ascii_lowercase()];
    assert!(
        operation.is_object(),
        "{what}: not in protocol/openapi.json"
    );
    let mut response = &operation["responses"][status.to_string()];
    assert!(response.is_object(), "{what}: status not declared: {body}");
    if let Some(r) = response["$ref"].as_str() {
        let name = r.trim_start_matches("#/components/responses/");
        response = &doc["components"]["responses"][name];
    }
    let Some(content) = response["content"].as_object() else {
        // Declared without content (204): none sent.
        assert!(
            body.is_empty(),
            "{what}: a body where none is declared: {body}"
        );
        return;
    };
    let kind = head
        .lines()
        .find_map(|l| l.strip_prefix("content-type: "))
        .unwrap_or_default()
        .trim();
    let (declared, media) = content
        .iter()
        .find(|(k, _)| kind.starts_with(k.as_str()))
        .unwrap_or_else(|| panic!("{what}: content type {kind} not declared ({content:?})"));
    if !declared.contains("json") {
        return;
    }
    let schema = &media["schema"];
    if schema["$ref"]
        .as_str()
        .is_some_and(|r| r.ends_with("view.json"))
    {
        // The view stream's schema: tests/web.rs validates the stream against it.
        return;
    }
    let value: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{what}: {e}"));
    let errors: Vec<String> = validator(doc, schema)
        .iter_errors(&value)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{what}: {}\n{value}", errors.join("\n"));
}
