//! Reaching a team store: a `postgres://` URL as libpq reads it (TLS as its `sslmode`
//! and `sslrootcert` say: `tls`), its password from the URL, `PGPASSWORD` or the
//! password file (`PGPASSFILE`, else `~/.pgpass`) as libpq looks for it, and the store
//! named in messages without its password.

use std::collections::HashMap;
use std::path::PathBuf;
use std::str::FromStr;

use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use postgres::config::Host;
use postgres::{Client, Config, Statement};

use super::tls;
use crate::{Error, Result};

/// Whether `store` names a PostgreSQL store rather than a SQLite file.
pub fn is_url(store: &str) -> bool {
    store.starts_with("postgres://") || store.starts_with("postgresql://")
}

/// A `postgres://` URL's parts around its user: scheme, role, password, and the rest
/// from the host on; `None` when it names no role.
struct Credentials<'a> {
    scheme: &'a str,
    role: &'a str,
    password: Option<&'a str>,
    host_on: &'a str,
}

/// The user part as the driver reads it: everything up to the first `@` (so a `/`, `?`
/// or `:` a password holds unencoded stays in it), the password after its first `:`;
/// and a later `@` before the host's end too (a password holding an unencoded `@`,
/// which the driver cuts short), so that no part of such a password is shown.
fn credentials(url: &str) -> Option<Credentials<'_>> {
    let (scheme, rest) = url.split_once("://")?;
    let first = rest.find('@')?;
    let host_end = rest[first..]
        .find(['/', '?'])
        .map_or(rest.len(), |end| first + end);
    let at = rest[..host_end].rfind('@').unwrap_or(first);
    let (userinfo, host_on) = (&rest[..at], &rest[at + 1..]);
    let (role, password) = match userinfo.split_once(':') {
        Some((role, password)) => (role, Some(password)),
        None => (userinfo, None),
    };
    Some(Credentials {
        scheme,
        role,
        password,
        host_on,
    })
}

/// Whether a URL parameter (`key=value`) gives a password: `password`, and anything
/// else whose name says so (`sslpassword`), its name percent-decoded as the driver
/// decodes it (`pass%77ord`), in any case.
fn is_password_parameter(pair: &str) -> bool {
    let key = pair.split_once('=').map_or(pair, |(key, _)| key);
    percent_encoding::percent_decode_str(key)
        .decode_utf8_lossy()
        .to_ascii_lowercase()
        .contains("password")
}

/// The parameters after the first `?` of `url` (wherever the driver would read them
/// from: also one the user part holds).
fn parameters(url: &str) -> impl Iterator<Item = &str> {
    let query = url.split_once('?').map_or("", |(_, query)| query);
    query.split('&').filter(|pair| !pair.is_empty())
}

/// Whether `url` holds a password: in its user part (`postgres://ROLE:PASSWORD@…`) or
/// as a parameter (`?password=…`).
fn holds_password(url: &str) -> bool {
    credentials(url).is_some_and(|c| c.password.is_some())
        || parameters(url).any(is_password_parameter)
}

/// `url` as messages show it: without its password, the user part's and every
/// password parameter. The one way a store's URL is shown (`store_name`, every error).
pub(crate) fn shown(url: &str) -> String {
    let url = match credentials(url) {
        Some(c) if c.password.is_some() => format!("{}://{}@{}", c.scheme, c.role, c.host_on),
        _ => url.to_owned(),
    };
    let Some((base, _)) = url.split_once('?') else {
        return url;
    };
    let kept: Vec<&str> = parameters(&url)
        .filter(|pair| !is_password_parameter(pair))
        .collect();
    match kept.is_empty() {
        true => base.to_owned(),
        false => format!("{base}?{}", kept.join("&")),
    }
}

/// The role a team store's URL names (percent-encoded as written) and whether the URL
/// holds a password too, in its user part or as a parameter: the app keeps the
/// password in the OS keychain, so the URL it saves must name the role and hold none.
pub fn url_role(url: &str) -> Option<(&str, bool)> {
    credentials(url)
        .filter(|c| !c.role.is_empty() && !c.role.contains(['/', '?']))
        .map(|c| (c.role, holds_password(url)))
}

/// `url` with `password` as its role's (percent-encoded, as the driver decodes it), for
/// a connection only: never shown, never saved. A URL that names no role or holds a
/// password already is returned as it is.
pub fn with_password(url: &str, password: &str) -> String {
    match (url_role(url), credentials(url)) {
        (Some((_, false)), Some(c)) => {
            let password = utf8_percent_encode(password, NON_ALPHANUMERIC);
            format!("{}://{}:{password}@{}", c.scheme, c.role, c.host_on)
        }
        _ => url.to_owned(),
    }
}

/// A connection to a team store. The driver runs an async runtime of its own, which
/// cannot start on a thread that runs one already (the app's and aasmd's call the store
/// there): each use of the connection, and its closing, runs off such a thread.
pub(crate) struct Conn {
    client: Option<Client>,
    url: String,
    /// Statements prepared on this connection, by their text: a query given as text is
    /// prepared anew each time, a round trip more.
    prepared: HashMap<&'static str, Statement>,
}

impl Conn {
    /// Connects to the store at `url`.
    pub(crate) fn open(url: &str) -> Result<Conn> {
        let tls_refused = |reason| Error::TeamUrl {
            store: shown(url),
            reason,
        };
        let (tls, driver_url) = tls::split(url).map_err(tls_refused)?;
        let mut config = Config::from_str(&driver_url).map_err(sql_error(url))?;
        config.ssl_mode(tls.ssl_mode());
        let connector = tls.connector().map_err(tls_refused)?;
        if config.get_password().is_none() {
            if let Some(password) = password_for(&config) {
                config.password(password);
            }
        }
        config.application_name("aas-browser");
        config.connect_timeout(std::time::Duration::from_secs(10));
        let client = off_runtime(|| config.connect(connector)).map_err(sql_error(url))?;
        Ok(Conn {
            client: Some(client),
            url: url.to_owned(),
            prepared: HashMap::new(),
        })
    }

    /// Runs `work` on the connection; its error names the store.
    pub(crate) fn run<T: Send>(
        &mut self,
        work: impl FnOnce(&mut Client) -> std::result::Result<T, postgres::Error> + Send,
    ) -> Result<T> {
        let client = self.client.as_mut().expect("open until dropped");
        off_runtime(|| work(client)).map_err(sql_error(&self.url))
    }

    /// Runs `work` with `sql` prepared (once per connection); its error names the store.
    pub(crate) fn run_prepared<T: Send>(
        &mut self,
        sql: &'static str,
        work: impl FnOnce(&mut Client, &Statement) -> std::result::Result<T, postgres::Error> + Send,
    ) -> Result<T> {
        let client = self.client.as_mut().expect("open until dropped");
        let prepared = &mut self.prepared;
        off_runtime(|| {
            let statement = match prepared.get(sql) {
                Some(statement) => statement.clone(),
                None => {
                    let statement = client.prepare(sql)?;
                    prepared.insert(sql, statement.clone());
                    statement
                }
            };
            work(client, &statement)
        })
        .map_err(sql_error(&self.url))
    }

    /// The store's URL, with its password: for another connection to it.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            off_runtime(move || drop(client));
        }
    }
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conn")
            .field("store", &shown(&self.url))
            .finish()
    }
}

/// Runs `work` here, or on a thread of its own when this one runs an async runtime.
pub(crate) fn off_runtime<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    if tokio::runtime::Handle::try_current().is_err() {
        return work();
    }
    std::thread::scope(|s| {
        s.spawn(work)
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The store's error for one of PostgreSQL's, naming the store without its password.
pub(crate) fn sql_error(url: &str) -> impl Fn(postgres::Error) -> Error + '_ {
    move |source| Error::Postgres {
        store: shown(url),
        source,
    }
}

/// The most of a password file read: thousands of lines.
const MAX_PASSWORD_FILE_BYTES: u64 = 1 << 20;

/// The password libpq would use for `config`: `PGPASSWORD`, else the first matching
/// line of the password file.
fn password_for(config: &Config) -> Option<String> {
    if let Ok(password) = std::env::var("PGPASSWORD") {
        return Some(password);
    }
    let file = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::home_dir().map(|home| home.join(".pgpass")))?;
    // As libpq: a password file that is not a regular file is not used (a FIFO would
    // hang the connection, a device fill memory); nor is one past 1 MiB.
    let text = aas_model::read_small_text(&file, MAX_PASSWORD_FILE_BYTES).ok()?;
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(host)) => host.clone(),
        #[cfg(unix)]
        Some(Host::Unix(_)) | None => "localhost".to_owned(),
        #[cfg(not(unix))]
        None => "localhost".to_owned(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let user = config.get_user().unwrap_or_default();
    let database = config.get_dbname().unwrap_or(user);
    let wanted = [host.as_str(), port.as_str(), database, user];
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let fields = pgpass_fields(line);
            let [h, p, d, u, password] = <[String; 5]>::try_from(fields).ok()?;
            let matches = [h, p, d, u]
                .iter()
                .zip(wanted)
                .all(|(field, want)| field == "*" || field == want);
            matches.then_some(password)
        })
}

/// A password file line's fields: split at `:`, with `\:` and `\\` escaped.
fn pgpass_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    fields.last_mut().expect("one field").push(next);
                }
            }
            ':' => fields.push(String::new()),
            c => fields.last_mut().expect("one field").push(c),
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_shown_without_its_password() {
        assert_eq!(
            shown("postgres://team:s3cret@db.example:5432/plants?sslmode=require"),
            "postgres://team@db.example:5432/plants?sslmode=require"
        );
        assert_eq!(shown("postgres://db/plants"), "postgres://db/plants");
        assert!(is_url("postgresql://db/x") && !is_url("/home/me/snapshots.sqlite3"));
    }

    #[test]
    fn a_password_goes_into_the_url_encoded_once_and_only_where_none_is() {
        let url = "postgres://team@db.example/plants?sslmode=require";
        let with = with_password(url, "p@ss:w/rd %");
        assert_eq!(
            with,
            "postgres://team:p%40ss%3Aw%2Frd%20%25@db.example/plants?sslmode=require"
        );
        let config = Config::from_str(&with).expect("the driver reads it");
        assert_eq!(config.get_password(), Some("p@ss:w/rd %".as_bytes()));
        assert_eq!(shown(&with), url);
        assert_eq!(with_password(&with, "other"), with);
        assert_eq!(
            with_password("postgres://db/plants", "x"),
            "postgres://db/plants"
        );
        assert_eq!(url_role(url), Some(("team", false)));
        assert_eq!(url_role(&with), Some(("team", true)));
        assert_eq!(url_role("postgres://db/plants"), None);
    }

    /// Issue 43: a password the driver takes from a parameter, or from a user part
    /// holding an unencoded `/` or `?`, was shown in every message.
    #[test]
    fn a_password_anywhere_the_driver_reads_one_is_never_shown() {
        for (url, expected, driver_reads_it) in [
            (
                "postgres://team@db/plants?password=PW1&sslmode=require",
                "postgres://team@db/plants?sslmode=require",
                true,
            ),
            (
                "postgres://team@db/plants?sslmode=require&password=PW1",
                "postgres://team@db/plants?sslmode=require",
                true,
            ),
            (
                "postgresql://db/plants?pass%77ord=PW1",
                "postgresql://db/plants",
                true,
            ),
            (
                "postgres://team:PW1/x?y@db:5432/plants?application_name=a",
                "postgres://team@db:5432/plants?application_name=a",
                true,
            ),
            (
                "postgres://team:PW1@db/plants?password=PW1",
                "postgres://team@db/plants",
                true,
            ),
            // An unencoded `@`: the driver reads `PW1`, the rest is hidden as well.
            (
                "postgres://team:PW1@x@db/plants",
                "postgres://team@db/plants",
                true,
            ),
            // Not the driver's names, but libpq's or a mistake's: hidden all the same.
            (
                "postgres://db/plants?PASSWORD=PW1&sslpassword=PW1&dbname=p",
                "postgres://db/plants?dbname=p",
                false,
            ),
            // libpq reads a password here, the driver a strange role: hidden for both.
            (
                "postgres://db/plants?password=PW1@x",
                "postgres://db/plants",
                false,
            ),
        ] {
            assert_eq!(shown(url), expected, "{url}");
            assert!(holds_password(url), "{url}");
            if driver_reads_it {
                let config = Config::from_str(url).expect("the driver reads it");
                assert!(
                    config.get_password().is_some_and(|p| p.starts_with(b"PW1")),
                    "{url}"
                );
            }
            match url_role(url) {
                Some((_, holds)) => assert!(holds, "{url}"),
                None => assert!(!url.contains("team"), "{url}"),
            }
            assert_eq!(with_password(url, "other"), url, "{url}");
        }
        for plain in [
            "postgres://team@db/plants?sslmode=require&application_name=x",
            "postgres://db:5432/plants",
        ] {
            assert_eq!(shown(plain), plain);
            assert!(!holds_password(plain));
        }
        assert_eq!(
            url_role("postgres://team@db/plants?sslmode=require"),
            Some(("team", false))
        );
        assert_eq!(url_role("postgres://db/plants?application_name=a@b"), None);
    }

    #[test]
    fn password_file_lines_are_split_with_escapes() {
        assert_eq!(
            pgpass_fields(r"db\:1:5432:*:team:pa\:ss\\word"),
            ["db:1", "5432", "*", "team", r"pa:ss\word"]
        );
    }
}
