//! Tests: errors.
