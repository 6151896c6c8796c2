//! One TLS crypto provider for the process. The relay's NATS client brings rustls with
//! *ring* and the Matrix SDK brings it with aws-lc-rs; with both in one build rustls
//! will not choose, and the first TLS connection would panic. Every door that opens
//! one calls [`ready`] first: *ring*, which the relay has always used.

/// Installs *ring* as the process's provider, once; later calls change nothing.
pub fn ready() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
