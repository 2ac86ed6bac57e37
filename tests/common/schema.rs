//! Zebra's JSON Schemas (`protocol/schemas/`), validated with the `jsonschema` crate (a
//! complete JSON Schema 2020-12 implementation), shared by the protocol and viewer tests.
//!
//! Each schema file is compiled once, with every file of the directory registered under
//! its own URI so that references between them (`defs.json#/$defs/square`) resolve
//! without touching the network or the disk again.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

pub const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The base URI the schema files are registered under.
const BASE: &str = "https://zebra.invalid/schemas/";

/// Every schema document of a directory, by file name, each with its validator.
pub struct Schemas {
    docs: BTreeMap<String, Value>,
    validators: BTreeMap<String, jsonschema::Validator>,
}

impl Schemas {
    /// Loads and compiles every `*.json` of `dir`; each must declare draft 2020-12.
    pub fn load(dir: &Path) -> Schemas {
        let mut docs = BTreeMap::new();
        for entry in std::fs::read_dir(dir).expect("protocol/schemas exists") {
            let path = entry.expect("readable directory").path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let doc: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
            assert_eq!(
                doc.get("$schema").and_then(Value::as_str),
                Some(DRAFT),
                "{name} must declare $schema draft 2020-12"
            );
            docs.insert(name, doc);
        }
        let with_id = |name: &str, doc: &Value| {
            let mut doc = doc.clone();
            doc["$id"] = Value::from(format!("{BASE}{name}"));
            doc
        };
        let mut validators = BTreeMap::new();
        for (name, doc) in &docs {
            let mut options = jsonschema::options();
            options.with_draft(jsonschema::Draft::Draft202012);
            for (other, other_doc) in &docs {
                let resource = jsonschema::Resource::from_contents(with_id(other, other_doc))
                    .unwrap_or_else(|e| panic!("{other}: {e}"));
                options.with_resource(format!("{BASE}{other}"), resource);
            }
            let validator = options
                .build(&with_id(name, doc))
                .unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
            validators.insert(name.clone(), validator);
        }
        Schemas { docs, validators }
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.docs.keys().map(String::as_str)
    }

    pub fn get(&self, name: &str) -> &Value {
        self.docs
            .get(name)
            .unwrap_or_else(|| panic!("no schema {name}"))
    }

    /// Validates `value` against the schema file `name`; the errors, one per line, each
    /// with where in the value and where in the schema.
    pub fn validate(&self, name: &str, value: &Value) -> Result<(), String> {
        let validator = self
            .validators
            .get(name)
            .unwrap_or_else(|| panic!("no schema {name}"));
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|e| format!("{} (at '{}', schema {})", e, e.instance_path, e.schema_path))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("\n"))
        }
    }

    /// Resolves a `$ref` (`file.json`, `#/json/pointer` or `file.json#/json/pointer`)
    /// made in document `doc`, for tests that read a definition; panics if it does not
    /// resolve.
    pub fn resolve<'a>(&'a self, doc: &str, reference: &str) -> (&'a str, &'a Value) {
        let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let file = if file.is_empty() { doc } else { file };
        let (name, root) = self
            .docs
            .get_key_value(file)
            .unwrap_or_else(|| panic!("$ref '{reference}' in {doc}: no schema file {file}"));
        if fragment.is_empty() {
            return (name, root);
        }
        let target = root
            .pointer(fragment)
            .unwrap_or_else(|| panic!("$ref '{reference}' in {doc} does not resolve"));
        (name, target)
    }
}
