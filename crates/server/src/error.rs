//! Refusals: a status and a JSON body `{"error": "..."}` that names the problem.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// A refused request. Nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What is wrong, for the client.
    pub message: String,
}

impl ApiError {
    /// A refusal with `status`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the request is malformed or the action illegal.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 409: not now (not your turn, no open seat, no claim possible).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 410: the game is over.
    pub fn gone(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::GONE, message)
    }

    /// 404: no such game.
    pub fn no_game(id: &str) -> ApiError {
        let id: String = id.chars().take(40).collect();
        ApiError::new(StatusCode::NOT_FOUND, format!("no game with id {id:?}"))
    }

    /// 503: the server cannot take it now.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The JSON body.
    pub fn body(&self) -> serde_json::Value {
        json!({ "error": self.message })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}
