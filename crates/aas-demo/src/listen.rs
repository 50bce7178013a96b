//! Serves the router on a listener, plain or over TLS, with the deadlines a service on a
//! shared machine needs: a client that opens a connection and sends nothing, or half a
//! request's head, is cut off after [`Config::head_timeout`](crate::Config) instead of
//! holding a connection (and its task) open forever.
//!
//! Two deadlines, because hyper has one and lacks the other: hyper's HTTP/1 header-read
//! timeout runs from the moment it waits for a head (also between requests on a kept-alive
//! connection), but before it, the automatic HTTP/1-or-2 detection waits for the first
//! bytes with no limit at all; [`FirstBytes`] puts the same limit on those.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum_server::accept::{Accept, DefaultAcceptor};
use axum_server::tls_rustls::{RustlsAcceptor, RustlsConfig};
use hyper_util::rt::TokioTimer;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::oneshot;
use tokio::time::Sleep;

/// Serves `router` until `stopped` fires, then lets open requests finish.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    tls: Option<RustlsConfig>,
    head_timeout: Duration,
    stopped: oneshot::Receiver<()>,
) -> io::Result<()> {
    let handle = axum_server::Handle::<SocketAddr>::new();
    let stopper = handle.clone();
    tokio::spawn(async move {
        let _ = stopped.await;
        stopper.graceful_shutdown(None);
    });
    let mut server = axum_server::Server::<SocketAddr>::from_listener(listener).handle(handle);
    server
        .http_builder()
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(head_timeout);
    let service = router.into_make_service();
    match tls {
        Some(config) => {
            let acceptor = FirstBytes::new(RustlsAcceptor::new(config), head_timeout);
            server.acceptor(acceptor).serve(service).await
        }
        None => {
            let acceptor = FirstBytes::new(DefaultAcceptor::new(), head_timeout);
            server.acceptor(acceptor).serve(service).await
        }
    }
}

/// An acceptor whose connections must send their first bytes within `within` of being
/// accepted (after the TLS handshake, which has a deadline of its own).
#[derive(Debug, Clone)]
struct FirstBytes<A> {
    inner: A,
    within: Duration,
}

impl<A> FirstBytes<A> {
    fn new(inner: A, within: Duration) -> Self {
        FirstBytes { inner, within }
    }
}

impl<A, I, S> Accept<I, S> for FirstBytes<A>
where
    A: Accept<I, S>,
    A::Future: Send + 'static,
    A::Stream: Send + 'static,
    A::Service: Send + 'static,
{
    type Stream = Deadline<A::Stream>;
    type Service = A::Service;
    type Future = Pin<Box<dyn Future<Output = io::Result<(Self::Stream, Self::Service)>> + Send>>;

    fn accept(&self, stream: I, service: S) -> Self::Future {
        let accepted = self.inner.accept(stream, service);
        let within = self.within;
        Box::pin(async move {
            let (stream, service) = accepted.await?;
            Ok((Deadline::new(stream, within), service))
        })
    }
}

/// A stream whose reads fail with `TimedOut` if no byte has arrived by its deadline;
/// from the first byte on it is the stream itself.
#[derive(Debug)]
struct Deadline<S> {
    inner: S,
    deadline: Option<Pin<Box<Sleep>>>,
}

impl<S> Deadline<S> {
    fn new(inner: S, within: Duration) -> Self {
        Deadline {
            inner,
            deadline: Some(Box::pin(tokio::time::sleep(within))),
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Deadline<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(read) => {
                if buf.filled().len() > before {
                    self.deadline = None;
                }
                Poll::Ready(read)
            }
            Poll::Pending => {
                let passed =
                    (self.deadline.as_mut()).is_some_and(|d| d.as_mut().poll(cx).is_ready());
                match passed {
                    true => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "no request within the deadline",
                    ))),
                    false => Poll::Pending,
                }
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Deadline<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
