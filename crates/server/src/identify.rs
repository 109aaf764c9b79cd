//! Who makes each request, worked out once before any route: the client's address (a trusted
//! proxy's `X-Forwarded-For`, else the connection's), its account (a session cookie or a personal
//! API token) or guest session; and cross-site requests refused. The [`Caller`] goes into the
//! request's extensions for the rate limits and the handlers.

use crate::accounts::{Caller, Credential, COOKIE, TOKEN_PREFIX};
use crate::error::ApiError;
use crate::hub::Hub;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::GovernorError;

/// Works out the caller and puts it in the request's extensions.
pub async fn identify(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    match caller(&hub, peer.ip(), request.method(), request.headers()).await {
        Ok(caller) => {
            request.extensions_mut().insert(caller);
            next.run(request).await
        }
        Err(e) => e.into_response(),
    }
}

async fn caller(
    hub: &Hub,
    peer: IpAddr,
    method: &Method,
    headers: &HeaderMap,
) -> Result<Caller, ApiError> {
    let trusted = &hub.config.trusted_proxies;
    let mut caller = Caller::anonymous(client_address(peer, headers, trusted));
    caller.https = trusted.iter().any(|net| net.contains(&peer))
        && last_value(headers, "x-forwarded-proto")
            .is_some_and(|p| p.eq_ignore_ascii_case("https"));
    if let Some(token) = bearer(headers).filter(|t| t.starts_with(TOKEN_PREFIX)) {
        let (id, scopes, account) = hub.accounts.token(token).await?.ok_or_else(|| {
            ApiError::Unauthenticated(
                "this API token is not valid: it may have been revoked".into(),
            )
        })?;
        caller.account = Some(account);
        caller.credential = Credential::Token { id, scopes };
        return Ok(caller);
    }
    let jar = CookieJar::from_headers(headers);
    let Some(cookie) = jar.get(COOKIE) else {
        return Ok(caller);
    };
    // A cookie that names no session (ended, never made) is as good as none.
    if let Some((hash, account)) = hub.accounts.session(cookie.value()).await? {
        caller.account = account;
        caller.credential = Credential::Session { hash };
        let safe = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        if !safe && !same_site(headers) {
            return Err(ApiError::Forbidden(
                "a request from another site may not use this site's session".into(),
            ));
        }
    }
    Ok(caller)
}

/// The `Bearer` token of the `Authorization` header, if there is one.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

fn last_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .next_back()
}

/// The client's address: the connection's, unless it comes from a trusted proxy, which says
/// in `X-Forwarded-For` for whom it forwards (the rightmost address not itself trusted).
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let forwarded: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map_while(|a| a.trim().parse().ok())
        .collect();
    forwarded
        .iter()
        .rev()
        .find(|ip| !is_trusted(ip))
        .or(forwarded.first())
        .copied()
        .unwrap_or(peer)
}

/// Whether a request comes from this site's own pages: its `Origin` names the host it was sent
/// to (a browser sends `Origin` with every cross-site request that changes something).
pub fn same_site(headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
        Some(origin) => {
            let authority = origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"));
            authority.is_some_and(|a| host.is_some_and(|h| a.eq_ignore_ascii_case(h)))
        }
        // No Origin: not a browser's cross-site request, unless it says it is.
        None => headers
            .get("sec-fetch-site")
            .and_then(|s| s.to_str().ok())
            .is_none_or(|s| s == "same-origin" || s == "none"),
    }
}

/// The rate limits' key: the caller's account, guest session or address.
#[derive(Clone, Copy, Debug)]
pub struct CallerKey;

impl KeyExtractor for CallerKey {
    type Key = String;

    fn extract<T>(&self, request: &axum::http::Request<T>) -> Result<String, GovernorError> {
        request
            .extensions()
            .get::<Caller>()
            .map(Caller::key)
            .ok_or(GovernorError::UnableToExtractKey)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn a_forwarded_address_is_believed_from_a_trusted_proxy_only() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let trusted: Vec<IpNet> = vec!["10.0.0.0/24".parse().unwrap()];
        let forwarded = headers(&[("x-forwarded-for", "203.0.113.9, 198.51.100.7, 10.0.0.5")]);
        assert_eq!(
            client_address(proxy, &forwarded, &trusted),
            "198.51.100.7".parse::<IpAddr>().unwrap(),
            "the rightmost address the trusted proxies did not add"
        );
        let stranger: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(client_address(stranger, &forwarded, &trusted), stranger);
        assert_eq!(client_address(proxy, &forwarded, &[]), proxy);
        let garbage = headers(&[("x-forwarded-for", "not an address")]);
        assert_eq!(client_address(proxy, &garbage, &trusted), proxy);
    }

    #[test]
    fn a_request_is_same_site_when_its_origin_is_the_host() {
        let own = headers(&[
            ("host", "play.example:8080"),
            ("origin", "https://play.example:8080"),
        ]);
        assert!(same_site(&own));
        let foreign = headers(&[("host", "play.example"), ("origin", "https://evil.example")]);
        assert!(!same_site(&foreign));
        let null = headers(&[("host", "play.example"), ("origin", "null")]);
        assert!(!same_site(&null));
        let fetched = headers(&[("host", "play.example"), ("sec-fetch-site", "cross-site")]);
        assert!(!same_site(&fetched));
        assert!(same_site(&headers(&[("host", "play.example")])));
    }
}
