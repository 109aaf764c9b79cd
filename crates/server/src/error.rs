//! Refusals: a status and a JSON body `{"error": "...", "kind": "..."}` that names the problem,
//! in words for people and as a stable kind for programs. Nothing was changed.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bluffchess_rules::arbiter::ArbiterError;
use bluffchess_rules::error::ActionError;
use serde_json::json;

/// A refused request, by cause. Nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// 400: a request that cannot be read: a body, a parameter, a name.
    #[error("{0}")]
    Malformed(String),
    /// 400: an action the rules refuse (its kind is the rules' own: `illegal-action`, ...).
    #[error("{message}")]
    Refused {
        /// The rules' stable id of the refusal.
        kind: &'static str,
        /// What is wrong.
        message: String,
    },
    /// 401: no credentials where they are needed, or credentials that cannot be read.
    #[error("{0}")]
    Unauthenticated(String),
    /// 403: credentials that do not give what is asked.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such game, route or file.
    #[error("{0}")]
    NotFound(String),
    /// 405: the route does not take this method.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// 409: not now (not your turn, no open seat, no draw to accept...).
    #[error("{message}")]
    Conflict {
        /// A stable id of the refusal (`not-your-turn`, `no-offer`, ...).
        kind: &'static str,
        /// What is wrong.
        message: String,
    },
    /// 410: the game is over.
    #[error("{0}")]
    Gone(String),
    /// 413: the body is too large.
    #[error("{0}")]
    TooLarge(String),
    /// 415: the body is not JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 422: a JSON body without a field, with a field of the wrong type or an unknown one.
    #[error("{0}")]
    Unprocessable(String),
    /// 429: too many requests, games or streams.
    #[error("{0}")]
    TooMany(String),
    /// 500: a fault of the server's own (never a client's).
    #[error("{0}")]
    Internal(String),
    /// 503: the server cannot take it now (the database, a shutdown).
    #[error("{0}")]
    Unavailable(String),
}

impl ApiError {
    /// 400: the request is malformed.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::Malformed(message.into())
    }

    /// 409: not now, for this stable reason.
    pub fn conflict(kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Conflict {
            kind,
            message: message.into(),
        }
    }

    /// 410: the game is over.
    pub fn gone(message: impl Into<String>) -> ApiError {
        ApiError::Gone(message.into())
    }

    /// 404: no such game.
    pub fn no_game(id: &str) -> ApiError {
        let id: String = id.chars().take(40).collect();
        ApiError::NotFound(format!("no game with id {id:?}"))
    }

    /// 503: the server cannot take it now.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::Unavailable(message.into())
    }

    /// A refusal of `status` as the layers and extractors give it (body limits, rate limits,
    /// unreadable JSON), with their text.
    pub fn from_status(status: StatusCode, message: impl Into<String>) -> ApiError {
        let message = message.into();
        match status {
            StatusCode::UNAUTHORIZED => ApiError::Unauthenticated(message),
            StatusCode::FORBIDDEN => ApiError::Forbidden(message),
            StatusCode::NOT_FOUND => ApiError::NotFound(message),
            StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed(message),
            StatusCode::CONFLICT => ApiError::conflict("conflict", message),
            StatusCode::GONE => ApiError::Gone(message),
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(message),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType(message),
            StatusCode::UNPROCESSABLE_ENTITY => ApiError::Unprocessable(message),
            StatusCode::TOO_MANY_REQUESTS => ApiError::TooMany(message),
            StatusCode::SERVICE_UNAVAILABLE => ApiError::Unavailable(message),
            s if s.is_server_error() => ApiError::Internal(message),
            _ => ApiError::Malformed(message),
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Malformed(_) | ApiError::Refused { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthenticated(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::Gone(_) => StatusCode::GONE,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// A stable id of the refusal, for programs to match (the words may change).
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::Malformed(_) => "malformed",
            ApiError::Refused { kind, .. } | ApiError::Conflict { kind, .. } => kind,
            ApiError::Unauthenticated(_) => "unauthenticated",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not-found",
            ApiError::MethodNotAllowed(_) => "method-not-allowed",
            ApiError::Gone(_) => "game-over",
            ApiError::TooLarge(_) => "too-large",
            ApiError::UnsupportedMediaType(_) => "not-json",
            ApiError::Unprocessable(_) => "unprocessable",
            ApiError::TooMany(_) => "too-many",
            ApiError::Internal(_) => "internal",
            ApiError::Unavailable(_) => "unavailable",
        }
    }

    /// The JSON body.
    pub fn body(&self) -> serde_json::Value {
        json!({ "error": self.to_string(), "kind": self.kind() })
    }
}

impl From<ArbiterError> for ApiError {
    /// The rules' refusals: an illegal action is a 400, an action after the end a 410, a
    /// command that is not possible now (no offer to accept, no claim) a 409.
    fn from(e: ArbiterError) -> ApiError {
        match e {
            ArbiterError::Action(ActionError::GameOver) => ApiError::gone("the game is over"),
            ArbiterError::Action(e) => ApiError::Refused {
                kind: e.id(),
                message: e.to_string(),
            },
            other => ApiError::conflict(other.id(), other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), Json(self.body())).into_response()
    }
}
