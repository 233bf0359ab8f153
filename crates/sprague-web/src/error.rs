//! Errors of the API: a status and a message, answered as `{"error": TEXT}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use sprague::catalog::Catalog;

/// An API error: the HTTP status and a one-line message naming what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// 400 for bad input, 422 for work past the server's bounds, 500 for a bug.
    pub status: StatusCode,
    /// What went wrong, in lowercase like the library's messages.
    pub message: String,
    /// For an unknown game name near one of the catalog's: the name as typed and the catalog's
    /// name (answered as `"did_you_mean": {"typed": ..., "game": ...}`), so a page can offer it.
    pub did_you_mean: Option<(String, &'static str)>,
}

impl ApiError {
    /// Bad input (400).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            did_you_mean: None,
        }
    }

    /// A request past the server's bounds (422).
    pub fn limit(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
            did_you_mean: None,
        }
    }

    /// A bug (500).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
            did_you_mean: None,
        }
    }
}

impl From<sprague::Error> for ApiError {
    fn from(error: sprague::Error) -> ApiError {
        match error {
            sprague::Error::Limit(_) | sprague::Error::Stopped(_) => {
                ApiError::limit(error.to_string())
            }
            sprague::Error::Spec { spec, reason } if reason.starts_with("unknown game") => {
                unknown_game(spec)
            }
            e if e.is_user_error() => ApiError::bad(e.to_string()),
            e => ApiError::internal(e.to_string()),
        }
    }
}

/// An unknown game name: the catalog's nearest name when one is near enough (the library's
/// "did you mean"), and where a web client finds the list (the command line's message points to
/// `sprague catalog`, which a page's user has no way to run).
fn unknown_game(spec: String) -> ApiError {
    let near = Catalog::suggest(&spec);
    let message = match near {
        Some(near) => format!(
            "unknown game '{spec}'; did you mean '{near}'? (the catalog menu lists every game; so does /api/catalog)"
        ),
        None => format!(
            "unknown game '{spec}'; the catalog menu lists every game (so does /api/catalog)"
        ),
    };
    // The name as typed, without its parameters (`domineerign:3x3` → `domineerign`).
    let typed = spec.split(':').next().unwrap_or(&spec).to_string();
    ApiError {
        did_you_mean: near.map(|near| (typed, near)),
        ..ApiError::bad(message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some((typed, game)) = self.did_you_mean {
            body["did_you_mean"] = serde_json::json!({ "typed": typed, "game": game });
        }
        (self.status, Json(body)).into_response()
    }
}
