//! A validator for the subset of JSON Schema 2020-12 that Zebra's schemas use
//! (`protocol/schemas/`), shared by the protocol and viewer tests.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

pub const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Keywords that only annotate (or hold definitions): no assertion.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$comment",
    "$defs",
    "title",
    "description",
    "examples",
    "default",
];

/// Assertion and applicator keywords this validator implements.
const IMPLEMENTED: &[&str] = &[
    "$ref",
    "type",
    "enum",
    "const",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "minimum",
    "maximum",
    "multipleOf",
    "pattern",
    "oneOf",
    "anyOf",
];

const TYPES: &[&str] = &[
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// Every schema document of a directory, by file name.
pub struct Schemas {
    docs: BTreeMap<String, Value>,
}

impl Schemas {
    /// Loads every `*.json` of `dir`; each must declare draft 2020-12 and pass [`lint`].
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
        let schemas = Schemas { docs };
        for (name, doc) in &schemas.docs {
            schemas.lint(name, doc, "#");
        }
        schemas
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.docs.keys().map(String::as_str)
    }

    pub fn get(&self, name: &str) -> &Value {
        self.docs
            .get(name)
            .unwrap_or_else(|| panic!("no schema {name}"))
    }

    /// Validates `value` against the schema file `name`; the errors, one per line.
    pub fn validate(&self, name: &str, value: &Value) -> Result<(), String> {
        let mut errs = Vec::new();
        let (doc, root) = self.resolve(name, name);
        self.check(doc, root, value, "", &mut errs);
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs.join("\n"))
        }
    }

    /// Resolves a `$ref` (`file.json`, `#/json/pointer` or `file.json#/json/pointer`)
    /// made in document `doc`; panics if it does not resolve.
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
        assert!(
            fragment.starts_with('/'),
            "$ref '{reference}' in {doc}: only JSON-pointer fragments are implemented"
        );
        let target = root
            .pointer(fragment)
            .unwrap_or_else(|| panic!("$ref '{reference}' in {doc} does not resolve"));
        (name, target)
    }

    /// Checks a schema's shape: only known keywords, with arguments of the right kind,
    /// every `$ref` resolving, every pattern within the implemented subset,
    /// `additionalProperties` never closing an object, and `required` naming only
    /// declared properties.
    fn lint(&self, doc: &str, schema: &Value, at: &str) {
        let obj = match schema {
            Value::Bool(_) => return,
            Value::Object(o) => o,
            _ => panic!("{doc} {at}: a schema is an object or a boolean"),
        };
        for (key, arg) in obj {
            let here = format!("{at}/{key}");
            match key.as_str() {
                "$defs" | "properties" => {
                    let map = arg
                        .as_object()
                        .unwrap_or_else(|| panic!("{doc} {here}: an object"));
                    for (name, sub) in map {
                        self.lint(doc, sub, &format!("{here}/{name}"));
                    }
                }
                "items" => self.lint(doc, arg, &here),
                "oneOf" | "anyOf" => {
                    let branches = arg
                        .as_array()
                        .unwrap_or_else(|| panic!("{doc} {here}: an array"));
                    assert!(branches.len() >= 2, "{doc} {here}: two branches or more");
                    for (i, sub) in branches.iter().enumerate() {
                        self.lint(doc, sub, &format!("{here}/{i}"));
                    }
                }
                "$ref" => {
                    let r = arg
                        .as_str()
                        .unwrap_or_else(|| panic!("{doc} {here}: a string"));
                    self.resolve(doc, r);
                }
                "type" => {
                    for t in strings(arg, doc, &here) {
                        assert!(TYPES.contains(&t), "{doc} {here}: unknown type {t}");
                    }
                }
                "enum" => assert!(
                    arg.as_array().is_some_and(|a| !a.is_empty()),
                    "{doc} {here}: a non-empty array"
                ),
                "required" => {
                    let names = strings(arg, doc, &here);
                    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
                        for n in names {
                            assert!(
                                props.contains_key(n),
                                "{doc} {here}: '{n}' is required but not declared"
                            );
                        }
                    }
                }
                "additionalProperties" => assert_eq!(
                    arg,
                    &Value::Bool(true),
                    "{doc} {here}: both sides ignore fields they do not know, so \
                     objects stay open"
                ),
                "minItems" | "maxItems" | "minLength" => {
                    assert!(arg.is_u64(), "{doc} {here}: a non-negative integer")
                }
                "minimum" | "maximum" | "multipleOf" => {
                    assert!(arg.is_number(), "{doc} {here}: a number")
                }
                "pattern" => {
                    let p = arg
                        .as_str()
                        .unwrap_or_else(|| panic!("{doc} {here}: a string"));
                    parse_pattern(p);
                }
                "const" => {}
                "title" | "description" | "$comment" | "$schema" => {
                    assert!(arg.is_string(), "{doc} {here}: a string")
                }
                k if ANNOTATIONS.contains(&k) => {}
                other => panic!(
                    "{doc} {at}: keyword '{other}' is not implemented by the validator in \
                     tests/protocol.rs"
                ),
            }
        }
    }

    fn check(&self, doc: &str, schema: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
        let obj = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                errs.push(format!("{at}: no value is allowed here"));
                return;
            }
            Value::Object(o) => o,
            _ => panic!("{doc}: a schema is an object or a boolean"),
        };
        let here = if at.is_empty() { "/" } else { at };
        for (key, arg) in obj {
            let key = key.as_str();
            if ANNOTATIONS.contains(&key) {
                continue;
            }
            assert!(
                IMPLEMENTED.contains(&key),
                "{doc}: keyword '{key}' is not implemented"
            );
            match key {
                "$ref" => {
                    let (d, s) = self.resolve(doc, arg.as_str().unwrap());
                    self.check(d, s, v, at, errs);
                }
                "type" => {
                    let types = strings(arg, doc, key);
                    if !types.iter().any(|t| has_type(v, t)) {
                        errs.push(format!(
                            "{here}: expected {}, got {}",
                            types.join(" or "),
                            short(v)
                        ));
                    }
                }
                "enum" => {
                    if !arg.as_array().unwrap().contains(v) {
                        errs.push(format!("{here}: {} is not one of {arg}", short(v)));
                    }
                }
                "const" => {
                    if arg != v {
                        errs.push(format!("{here}: {} is not {arg}", short(v)));
                    }
                }
                "required" => {
                    if let Value::Object(m) = v {
                        for name in strings(arg, doc, key) {
                            if !m.contains_key(name) {
                                errs.push(format!("{here}: '{name}' is missing"));
                            }
                        }
                    }
                }
                "properties" => {
                    if let Value::Object(m) = v {
                        for (name, sub) in arg.as_object().unwrap() {
                            if let Some(x) = m.get(name) {
                                self.check(doc, sub, x, &format!("{at}/{name}"), errs);
                            }
                        }
                    }
                }
                // Always `true` (see `lint`): nothing to check.
                "additionalProperties" => {}
                "items" => {
                    if let Value::Array(a) = v {
                        for (i, x) in a.iter().enumerate() {
                            self.check(doc, arg, x, &format!("{at}/{i}"), errs);
                        }
                    }
                }
                "minItems" => {
                    if let Value::Array(a) = v {
                        if (a.len() as u64) < arg.as_u64().unwrap() {
                            errs.push(format!("{here}: fewer than {arg} items"));
                        }
                    }
                }
                "maxItems" => {
                    if let Value::Array(a) = v {
                        if (a.len() as u64) > arg.as_u64().unwrap() {
                            errs.push(format!("{here}: more than {arg} items"));
                        }
                    }
                }
                "minLength" => {
                    if let Value::String(s) = v {
                        if (s.chars().count() as u64) < arg.as_u64().unwrap() {
                            errs.push(format!("{here}: shorter than {arg} characters"));
                        }
                    }
                }
                "minimum" | "maximum" | "multipleOf" => {
                    if let (Some(x), Some(limit)) = (v.as_f64(), arg.as_f64()) {
                        let ok = match key {
                            "minimum" => x >= limit,
                            "maximum" => x <= limit,
                            _ => (x / limit).fract() == 0.0,
                        };
                        if !ok {
                            errs.push(format!("{here}: {x} breaks {key} {limit}"));
                        }
                    }
                }
                "pattern" => {
                    if let Value::String(s) = v {
                        let p = arg.as_str().unwrap();
                        if !pattern_matches(p, s) {
                            errs.push(format!("{here}: {s:?} does not match {p}"));
                        }
                    }
                }
                "oneOf" | "anyOf" => {
                    let results: Vec<Vec<String>> = arg
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|b| {
                            let mut e = Vec::new();
                            self.check(doc, b, v, at, &mut e);
                            e
                        })
                        .collect();
                    let ok = results.iter().filter(|e| e.is_empty()).count();
                    if ok == 0 {
                        let closest = results.iter().min_by_key(|e| e.len()).unwrap();
                        errs.push(format!(
                            "{here}: matches none of the {key} branches; the closest: {}",
                            closest.join("; ")
                        ));
                    } else if key == "oneOf" && ok > 1 {
                        errs.push(format!("{here}: matches {ok} oneOf branches, not one"));
                    }
                }
                _ => unreachable!("{key}"),
            }
        }
    }
}

fn strings<'a>(arg: &'a Value, doc: &str, at: &str) -> Vec<&'a str> {
    match arg {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .unwrap_or_else(|| panic!("{doc} {at}: strings expected"))
            })
            .collect(),
        _ => panic!("{doc} {at}: a string or an array of strings"),
    }
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|x| x.fract() == 0.0),
        _ => unreachable!("{t}"),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

/// A pattern of the implemented subset: `^`, then literal characters and bracket classes
/// of single characters and ranges (`[a-h]`), then `$`. One character class per
/// character of the string: no quantifiers, groups, alternatives or escapes.
fn parse_pattern(p: &str) -> Vec<Vec<(char, char)>> {
    let body = p
        .strip_prefix('^')
        .and_then(|b| b.strip_suffix('$'))
        .unwrap_or_else(|| panic!("pattern {p}: only anchored patterns ^...$ are implemented"));
    let mut atoms = Vec::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                let class: Vec<char> = chars.by_ref().take_while(|&c| c != ']').collect();
                assert!(
                    !class.is_empty() && !class.iter().any(|c| "^\\[".contains(*c)),
                    "pattern {p}: only plain classes like [a-h] are implemented"
                );
                let mut ranges = Vec::new();
                let mut i = 0;
                while i < class.len() {
                    if i + 2 < class.len() && class[i + 1] == '-' {
                        assert!(class[i] <= class[i + 2], "pattern {p}: empty range");
                        ranges.push((class[i], class[i + 2]));
                        i += 3;
                    } else {
                        ranges.push((class[i], class[i]));
                        i += 1;
                    }
                }
                atoms.push(ranges);
            }
            c if "\\.*+?{}()|^$]".contains(c) => {
                panic!("pattern {p}: '{c}' is not implemented by the validator")
            }
            c => atoms.push(vec![(c, c)]),
        }
    }
    atoms
}

pub fn pattern_matches(p: &str, s: &str) -> bool {
    let atoms = parse_pattern(p);
    let chars: Vec<char> = s.chars().collect();
    chars.len() == atoms.len()
        && chars
            .iter()
            .zip(&atoms)
            .all(|(c, ranges)| ranges.iter().any(|&(lo, hi)| lo <= *c && *c <= hi))
}
