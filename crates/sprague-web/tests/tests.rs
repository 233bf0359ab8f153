//! Integration tests of the web API: requests go through the router as a client sends them.

mod api;
