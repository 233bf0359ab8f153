//! Errors of the API: a status and a message, answered as `{"error": TEXT}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An API error: the HTTP status and a one-line message naming what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// 400 for bad input, 422 for work past the server's bounds, 500 for a bug.
    pub status: StatusCode,
    /// What went wrong, in lowercase like the library's messages.
    pub message: String,
}

impl ApiError {
    /// Bad input (400).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A request past the server's bounds (422).
    pub fn limit(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
        }
    }

    /// A bug (500).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }
}

impl From<sprague::Error> for ApiError {
    fn from(error: sprague::Error) -> ApiError {
        match error {
            sprague::Error::Limit(_) | sprague::Error::Stopped(_) => {
                ApiError::limit(error.to_string())
            }
            e if e.is_user_error() => ApiError::bad(e.to_string()),
            e => ApiError::internal(e.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}
