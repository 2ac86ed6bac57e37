//! The store's two databases behind one small interface: SQLite (the default: one file in
//! the data directory, nothing to run) and PostgreSQL (`--database postgres://…`: several
//! daemons share one queue and one store).
//!
//! Every statement is written once, in SQLite's dialect with numbered parameters (`?1`),
//! and translated for PostgreSQL once per statement text ([`to_postgres`]): `$1` for
//! `?1`, `ON CONFLICT DO NOTHING` for `INSERT OR IGNORE`, an `id` returned by an insert.
//! Values cross in four kinds ([`Value`]) both databases read and write, so a statement
//! binds and reads the same Rust types on either.
//!
//! Transactions: [`Db::begin`] is SQLite's `BEGIN IMMEDIATE` — one writer at a time — and on
//! PostgreSQL a transaction that first takes one advisory lock all of Zebra's daemons share,
//! so every write transaction of every daemon sees the store as SQLite's single writer
//! would: a check and the write it guards (a quota, an idempotency key, an exclusion) can
//! never interleave with another daemon's. The queue is the exception: [`Db::begin_queue`]
//! takes no lock, and a lease picks its game `FOR UPDATE SKIP LOCKED`, so daemons and
//! workers lease in parallel without waiting on each other.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use super::store::StoreError;

/// A value bound to a statement or read from a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

/// What can be bound to a statement's parameter.
pub trait Arg {
    fn value(&self) -> Value;
}

macro_rules! int_arg {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn value(&self) -> Value {
                // Every integer the store keeps fits (seeds are stored as their i64 bits).
                Value::Int(*self as i64)
            }
        }
    )*};
}
int_arg!(i64, i32, u32, u64, usize);

impl Arg for bool {
    fn value(&self) -> Value {
        Value::Int(i64::from(*self))
    }
}
impl Arg for f64 {
    fn value(&self) -> Value {
        Value::Real(*self)
    }
}
impl Arg for str {
    fn value(&self) -> Value {
        Value::Text(self.to_string())
    }
}
impl Arg for String {
    fn value(&self) -> Value {
        Value::Text(self.clone())
    }
}
impl<T: Arg + ?Sized> Arg for &T {
    fn value(&self) -> Value {
        (**self).value()
    }
}
impl<T: Arg> Arg for Option<T> {
    fn value(&self) -> Value {
        self.as_ref().map_or(Value::Null, Arg::value)
    }
}

/// The values of a statement's parameters: `args![a, b]`.
macro_rules! args {
    ($($x:expr),* $(,)?) => {
        &[$($crate::server::sql::Arg::value(&$x)),*][..]
    };
}
pub(crate) use args;

/// What a column can be read as.
pub trait Col: Sized {
    fn col(v: Value) -> Result<Self, String>;
}

impl Col for i64 {
    fn col(v: Value) -> Result<Self, String> {
        match v {
            Value::Int(i) => Ok(i),
            other => Err(format!("expected an integer, found {other:?}")),
        }
    }
}
macro_rules! int_col {
    ($($t:ty),*) => {$(
        impl Col for $t {
            fn col(v: Value) -> Result<Self, String> {
                let i = i64::col(v)?;
                <$t>::try_from(i).map_err(|_| format!("{i} is out of range"))
            }
        }
    )*};
}
int_col!(u64, u32, i32, usize);

impl Col for bool {
    fn col(v: Value) -> Result<Self, String> {
        Ok(i64::col(v)? != 0)
    }
}
impl Col for f64 {
    fn col(v: Value) -> Result<Self, String> {
        match v {
            Value::Real(f) => Ok(f),
            Value::Int(i) => Ok(i as f64),
            other => Err(format!("expected a number, found {other:?}")),
        }
    }
}
impl Col for String {
    fn col(v: Value) -> Result<Self, String> {
        match v {
            Value::Text(s) => Ok(s),
            other => Err(format!("expected text, found {other:?}")),
        }
    }
}
impl<T: Col> Col for Option<T> {
    fn col(v: Value) -> Result<Self, String> {
        match v {
            Value::Null => Ok(None),
            v => T::col(v).map(Some),
        }
    }
}

/// One row of a result.
pub enum Row<'a> {
    Lite(&'a rusqlite::Row<'a>),
    Pg(&'a postgres::Row),
}

impl Row<'_> {
    /// Column `i` (from 0) as a `T`.
    pub fn get<T: Col>(&self, i: usize) -> Result<T, StoreError> {
        let v = match self {
            Row::Lite(r) => lite_value(r.get_ref(i)?),
            Row::Pg(r) => pg_value(r, i)?,
        };
        T::col(v).map_err(|e| StoreError::Column(format!("column {i}: {e}")))
    }
}

fn lite_value(v: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(f) => Value::Real(f),
        ValueRef::Text(t) | ValueRef::Blob(t) => Value::Text(String::from_utf8_lossy(t).into()),
    }
}

fn pg_value(r: &postgres::Row, i: usize) -> Result<Value, StoreError> {
    use postgres::types::Type;
    let ty = r
        .columns()
        .get(i)
        .ok_or_else(|| StoreError::Column(format!("no column {i}")))?
        .type_()
        .clone();
    Ok(match ty {
        Type::INT8 => r
            .try_get::<_, Option<i64>>(i)?
            .map_or(Value::Null, Value::Int),
        Type::INT4 => r
            .try_get::<_, Option<i32>>(i)?
            .map_or(Value::Null, |v| Value::Int(v.into())),
        Type::INT2 => r
            .try_get::<_, Option<i16>>(i)?
            .map_or(Value::Null, |v| Value::Int(v.into())),
        Type::BOOL => r
            .try_get::<_, Option<bool>>(i)?
            .map_or(Value::Null, |v| Value::Int(v.into())),
        Type::FLOAT8 => r
            .try_get::<_, Option<f64>>(i)?
            .map_or(Value::Null, Value::Real),
        Type::FLOAT4 => r
            .try_get::<_, Option<f32>>(i)?
            .map_or(Value::Null, |v| Value::Real(v.into())),
        _ => r
            .try_get::<_, Option<String>>(i)?
            .map_or(Value::Null, Value::Text),
    })
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(f) => ValueRef::Real(*f),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

impl postgres::types::ToSql for Value {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::Type;
        match self {
            Value::Null => Ok(postgres::types::IsNull::Yes),
            // A parameter takes the type PostgreSQL inferred for it.
            Value::Int(i) => match *ty {
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => i.to_string().to_sql(ty, out),
                _ => i.to_sql(ty, out),
            },
            Value::Real(f) => f.to_sql(ty, out),
            Value::Text(s) => s.as_str().to_sql(ty, out),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

/// A statement's text for PostgreSQL: `?N` as `$N` (a bare `?` numbered in turn),
/// `instr` as `strpos` and `INSERT OR IGNORE` as an insert that does nothing on a conflict.
/// Quoted text is left as it is.
pub fn to_postgres(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut chars = sql.chars().peekable();
    let mut quoted = false;
    let mut bare = 0;
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
            out.push(c);
        } else if c == '?' && !quoted {
            let mut digits = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(*d);
                chars.next();
            }
            if digits.is_empty() {
                bare += 1;
                digits = bare.to_string();
            }
            out.push('$');
            out.push_str(&digits);
        } else {
            out.push(c);
        }
    }
    // SQLite's name of the one function the statements use that PostgreSQL names otherwise.
    out = out.replace("instr(", "strpos(");
    if let Some(rest) = out.strip_prefix("INSERT OR IGNORE ") {
        out = format!("INSERT {rest} ON CONFLICT DO NOTHING");
    }
    out
}

/// The advisory lock every write transaction of every daemon takes on PostgreSQL (any
/// number; this one spells "zebra").
const WRITER_LOCK: i64 = 0x7a_65_62_72_61;

/// What runs a prepared statement with its parameters (execute, query...).
trait PgCall<T>:
    FnOnce(
    &mut postgres::Client,
    &postgres::Statement,
    &[&(dyn postgres::types::ToSql + Sync)],
) -> Result<T, postgres::Error>
{
}

impl<T, F> PgCall<T> for F where
    F: FnOnce(
        &mut postgres::Client,
        &postgres::Statement,
        &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<T, postgres::Error>
{
}

/// Whether `e` says the session is over: the connection closed, or the server ended it
/// (a FATAL error: its shutdown, an administrator's command).
fn session_over(e: &postgres::Error) -> bool {
    e.is_closed() || e.as_db_error().is_some_and(|d| d.severity() == "FATAL")
}

/// Prepared statements a PostgreSQL connection keeps.
const STATEMENTS_KEPT: usize = 256;

/// A PostgreSQL connection and its prepared statements, by their SQLite text.
pub struct Pg {
    /// Always there but while it is dropped (see `Drop`).
    client: Option<postgres::Client>,
    /// Where to connect again.
    url: String,
    /// The last statement found the session over (see [`Db::pg_ready`]).
    broken: bool,
    statements: HashMap<String, postgres::Statement>,
}

impl Drop for Pg {
    /// The connection says goodbye to the server on its own small runtime, which cannot
    /// run on a thread of the daemon's: there it is closed from a thread of its own.
    fn drop(&mut self) {
        let Some(client) = self.client.take() else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_ok() {
            let _ = std::thread::spawn(move || drop(client)).join();
        }
    }
}

/// An open database.
pub struct Db {
    conn: Conn,
    /// Transactions open, the outermost first (the inner ones join it: see [`Db::begin`]).
    depth: Cell<u32>,
    /// Reconnections so far (see [`Db::connections`]).
    connections: Cell<u64>,
}

/// The connection itself.
enum Conn {
    Lite(rusqlite::Connection),
    Pg(Box<RefCell<Pg>>),
}

impl Db {
    /// Connects to PostgreSQL at `url` (`postgres://user:password@host:port/database` or
    /// the key=value form).
    pub fn connect_pg(url: &str) -> Result<Db, postgres::Error> {
        Ok(Db::of(Conn::Pg(Box::new(RefCell::new(Pg {
            client: Some(Self::pg_client(url)?),
            statements: HashMap::new(),
            url: url.to_string(),
            broken: false,
        })))))
    }

    fn pg_client(url: &str) -> Result<postgres::Client, postgres::Error> {
        let mut client = postgres::Client::connect(url, postgres::NoTls)?;
        // The server's notices ("already exists, skipping") are not the daemon's news.
        client.batch_execute("SET client_min_messages = warning")?;
        Ok(client)
    }

    /// A connection the server closed (its restart, a failover, an idle connection
    /// killed) is opened again at the next statement outside a transaction; the statement
    /// that found it closed failed. Counted in [`Db::connections`].
    fn pg_ready(&self, pg: &RefCell<Pg>) -> Result<(), StoreError> {
        let mut pg = pg.borrow_mut();
        if !pg.broken && !pg.client.as_ref().is_some_and(postgres::Client::is_closed) {
            return Ok(());
        }
        if self.depth.get() > 0 {
            return Err(StoreError::Column(
                "the connection to PostgreSQL closed during a transaction".to_string(),
            ));
        }
        let fresh = Self::pg_client(&pg.url)?;
        pg.client = Some(fresh);
        pg.broken = false;
        pg.statements.clear();
        self.connections.set(self.connections.get() + 1);
        tracing::warn!("the connection to PostgreSQL closed: connected again");
        Ok(())
    }

    /// How many times the connection was opened again (what a session held, such as its
    /// advisory locks, went with each closed one).
    pub fn connections(&self) -> u64 {
        self.connections.get()
    }

    fn of(conn: Conn) -> Db {
        Db {
            conn,
            depth: Cell::new(0),
            connections: Cell::new(0),
        }
    }

    /// A SQLite connection, set up.
    pub fn lite(conn: rusqlite::Connection) -> Db {
        Db::of(Conn::Lite(conn))
    }

    /// Whether this is PostgreSQL.
    pub fn is_pg(&self) -> bool {
        matches!(self.conn, Conn::Pg(_))
    }

    fn pg_run<T>(
        &self,
        pg: &RefCell<Pg>,
        sql: &str,
        args: &[Value],
        run: impl PgCall<T>,
    ) -> Result<T, StoreError> {
        self.pg_ready(pg)?;
        let mut held = pg.borrow_mut();
        let done = Self::pg_statement(&mut held, sql, args, run);
        if let Err(e) = &done {
            held.broken |= session_over(e);
        }
        Ok(done?)
    }

    fn pg_statement<T>(
        pg: &mut Pg,
        sql: &str,
        args: &[Value],
        run: impl PgCall<T>,
    ) -> Result<T, postgres::Error> {
        let Pg {
            client, statements, ..
        } = pg;
        let client = client.as_mut().expect("a connection");
        // Prepared with the types of the values bound (a NULL's left to the server): a
        // parameter PostgreSQL could not type from its use alone (`length(?1)`) is typed,
        // and every integer is a BIGINT as every integer column is.
        let mut key = String::with_capacity(sql.len() + args.len() + 1);
        key.extend(args.iter().map(|v| match v {
            Value::Null => 'n',
            Value::Int(_) => 'i',
            Value::Real(_) => 'r',
            Value::Text(_) => 't',
        }));
        key.push('|');
        key.push_str(sql);
        let statement = match statements.get(&key) {
            Some(s) => s.clone(),
            None => {
                use postgres::types::{Kind, Type};
                let types: Vec<Type> = args
                    .iter()
                    .map(|v| match v {
                        Value::Null => {
                            Type::new("unspecified".into(), 0, Kind::Simple, String::new())
                        }
                        Value::Int(_) => Type::INT8,
                        Value::Real(_) => Type::FLOAT8,
                        Value::Text(_) => Type::TEXT,
                    })
                    .collect();
                let s = client.prepare_typed(&to_postgres(sql), &types)?;
                // Statements made with varying text (a page's filters, a series' last
                // rows) would grow the cache without end: it starts afresh past a bound.
                if statements.len() >= STATEMENTS_KEPT {
                    statements.clear();
                }
                statements.insert(key, s.clone());
                s
            }
        };
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> = args
            .iter()
            .map(|v| v as &(dyn postgres::types::ToSql + Sync))
            .collect();
        run(client, &statement, &params)
    }

    /// Runs a statement; the rows it changed.
    pub fn execute(&self, sql: &str, args: &[Value]) -> Result<usize, StoreError> {
        match &self.conn {
            Conn::Lite(c) => Ok(c
                .prepare_cached(sql)?
                .execute(rusqlite::params_from_iter(args.iter()))?),
            Conn::Pg(pg) => self
                .pg_run(pg, sql, args, |c, s, p| c.execute(s, p))
                .map(|n| n as usize),
        }
    }

    /// Runs an `INSERT` into a table with an `id` key; the new row's id.
    pub fn insert(&self, sql: &str, args: &[Value]) -> Result<i64, StoreError> {
        match &self.conn {
            Conn::Lite(c) => {
                c.prepare_cached(sql)?
                    .execute(rusqlite::params_from_iter(args.iter()))?;
                Ok(c.last_insert_rowid())
            }
            Conn::Pg(_) => self.query_one(&format!("{sql} RETURNING id"), args, |r| r.get(0)),
        }
    }

    /// The rows of a query, each read by `read`.
    pub fn query<T>(
        &self,
        sql: &str,
        args: &[Value],
        mut read: impl FnMut(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut out = Vec::new();
        self.each(sql, args, |r| {
            out.push(read(r)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// Each row of a query in turn (SQLite reads them one at a time; PostgreSQL's come
    /// in one answer).
    pub fn each(
        &self,
        sql: &str,
        args: &[Value],
        mut each: impl FnMut(&Row<'_>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        match &self.conn {
            Conn::Lite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
                while let Some(r) = rows.next()? {
                    each(&Row::Lite(r))?;
                }
                Ok(())
            }
            Conn::Pg(pg) => {
                // Read, then the borrow of the connection ends: `each` may use the store.
                let rows = self.pg_run(pg, sql, args, |c, s, p| c.query(s, p))?;
                for r in &rows {
                    each(&Row::Pg(r))?;
                }
                Ok(())
            }
        }
    }

    /// The first row of a query, if any.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        args: &[Value],
        read: impl FnOnce(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        match &self.conn {
            Conn::Lite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
                match rows.next()? {
                    Some(r) => read(&Row::Lite(r)).map(Some),
                    None => Ok(None),
                }
            }
            Conn::Pg(pg) => {
                let row = self.pg_run(pg, sql, args, |c, s, p| c.query_opt(s, p))?;
                row.map(|r| read(&Row::Pg(&r))).transpose()
            }
        }
    }

    /// The first row of a query that always has one (an aggregate...).
    pub fn query_one<T>(
        &self,
        sql: &str,
        args: &[Value],
        read: impl FnOnce(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.query_opt(sql, args, read)?
            .ok_or_else(|| StoreError::Column(format!("no row from {sql}")))
    }

    /// Runs statements without parameters (a migration).
    pub fn batch(&self, sql: &str) -> Result<(), StoreError> {
        match &self.conn {
            Conn::Lite(c) => Ok(c.execute_batch(sql)?),
            Conn::Pg(pg) => {
                self.pg_ready(pg)?;
                let mut held = pg.borrow_mut();
                let done = held
                    .client
                    .as_mut()
                    .expect("a connection")
                    .batch_execute(sql);
                if let Err(e) = &done {
                    held.broken |= session_over(e);
                }
                Ok(done?)
            }
        }
    }

    /// Begins a write transaction: one writer at a time (see the module's docs). Rolled
    /// back when dropped uncommitted. Inside another (see [`Db::enter`]) it joins it: its
    /// writes commit or roll back with the outermost's (an error inside reaches the
    /// outermost's owner, whose `?` rolls everything back; a step that returns early
    /// with nothing written, as an idempotent resubmission does, changes nothing).
    pub fn begin(&self) -> Result<Tx<'_>, StoreError> {
        self.enter(true)?;
        Ok(Tx {
            db: self,
            done: false,
        })
    }

    /// Begins a transaction of the queue: on PostgreSQL without the writers' lock (a lease
    /// locks the one game it takes, skipping those others hold).
    pub fn begin_queue(&self) -> Result<Tx<'_>, StoreError> {
        self.enter(false)?;
        Ok(Tx {
            db: self,
            done: false,
        })
    }

    /// Opens a transaction, or joins the one open. PostgreSQL's at READ COMMITTED whatever
    /// the server's default: each statement sees what was committed before it began, which
    /// the finish numbers' order relies on (see `Store::finish`).
    pub fn enter(&self, writer: bool) -> Result<(), StoreError> {
        if self.depth.get() > 0 {
            self.depth.set(self.depth.get() + 1);
            return Ok(());
        }
        match &self.conn {
            Conn::Lite(_) => self.batch("BEGIN IMMEDIATE")?,
            Conn::Pg(_) => {
                self.batch("BEGIN ISOLATION LEVEL READ COMMITTED")?;
                if writer {
                    let locked =
                        self.execute("SELECT pg_advisory_xact_lock(?1)", args![WRITER_LOCK]);
                    if let Err(e) = locked {
                        let _ = self.batch("ROLLBACK");
                        return Err(e);
                    }
                }
            }
        }
        self.depth.set(1);
        Ok(())
    }

    /// Ends the transaction [`Db::enter`] opened or joined: the outermost commits (if
    /// `commit`) or rolls back; an inner one leaves that to the outermost.
    pub fn leave(&self, commit: bool) -> Result<(), StoreError> {
        let depth = self.depth.get();
        if depth == 0 {
            return Ok(());
        }
        self.depth.set(depth - 1);
        if depth > 1 {
            return Ok(());
        }
        if commit {
            let done = self.batch("COMMIT");
            if done.is_err() {
                // SQLite may keep the transaction open after a failed COMMIT.
                let _ = self.batch("ROLLBACK");
            }
            return done;
        }
        self.batch("ROLLBACK")
    }

    /// Whether `e` is a uniqueness constraint's refusal.
    pub fn is_unique_violation(e: &StoreError) -> bool {
        match e {
            StoreError::Sql(rusqlite::Error::SqliteFailure(f, _)) => {
                f.code == rusqlite::ErrorCode::ConstraintViolation
            }
            StoreError::Postgres(e) => {
                e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            _ => false,
        }
    }
}

/// A transaction: commit it, or it is rolled back when dropped.
pub struct Tx<'a> {
    db: &'a Db,
    done: bool,
}

impl Tx<'_> {
    pub fn commit(mut self) -> Result<(), StoreError> {
        self.done = true;
        self.db.leave(true)
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Db;
    fn deref(&self) -> &Db {
        self.db
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if !self.done {
            if let Err(e) = self.db.leave(false) {
                tracing::error!("cannot roll a transaction back: {e}");
            }
        }
    }
}

/// `url` with its database named `name` instead.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// Makes database `name` afresh on the server of `url` (a benchmark's own); its URL.
pub fn make_database(url: &str, name: &str) -> Result<String, String> {
    let mut admin = postgres::Client::connect(url, postgres::NoTls).map_err(|e| e.to_string())?;
    for sql in [
        format!("DROP DATABASE IF EXISTS {name}"),
        format!("CREATE DATABASE {name}"),
    ] {
        admin
            .batch_execute(&sql)
            .map_err(|e| format!("{sql}: {e}"))?;
    }
    Ok(with_database(url, name))
}

/// Drops database `name` on the server of `url`, whoever is still connected to it.
pub fn drop_database(url: &str, name: &str) -> Result<(), String> {
    let mut admin = postgres::Client::connect(url, postgres::NoTls).map_err(|e| e.to_string())?;
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .map_err(|e| format!("dropping {name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::{to_postgres, with_database};

    #[test]
    fn a_url_names_another_database() {
        assert_eq!(
            with_database("postgres://u:p@h:5432/zebra?sslmode=disable", "b"),
            "postgres://u:p@h:5432/b?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "b"), "postgres://h/b");
    }

    #[test]
    fn statements_are_translated_for_postgres() {
        assert_eq!(
            to_postgres("SELECT a FROM t WHERE b = ?2 AND c = ?1 AND d = '?'"),
            "SELECT a FROM t WHERE b = $2 AND c = $1 AND d = '?'"
        );
        assert_eq!(
            to_postgres("UPDATE t SET a = ? WHERE b = ?"),
            "UPDATE t SET a = $1 WHERE b = $2"
        );
        assert_eq!(
            to_postgres("INSERT OR IGNORE INTO t (a) VALUES (?1)"),
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING"
        );
    }
}
