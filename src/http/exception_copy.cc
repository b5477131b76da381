// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/exception_copy.h"

#include "tern/exceptions.h"

namespace tern::internal {

std::exception_ptr copyOf(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const StreamResetException& x) {
    return std::make_exception_ptr(StreamResetException(x.errorCode(), x.what()));
  } catch (const SocketTimeoutException& x) {
    return std::make_exception_ptr(SocketTimeoutException(x.what()));
  } catch (const InterruptedIOException& x) {
    return std::make_exception_ptr(InterruptedIOException(x.what()));
  } catch (const ProtocolException& x) {
    return std::make_exception_ptr(ProtocolException(x.what()));
  } catch (const EOFException& x) {
    return std::make_exception_ptr(EOFException(x.what()));
  } catch (const ConnectException& x) {
    return std::make_exception_ptr(ConnectException(x.what()));
  } catch (const SSLHandshakeException& x) {
    return std::make_exception_ptr(SSLHandshakeException(x.what()));
  } catch (const SSLPeerUnverifiedException& x) {
    return std::make_exception_ptr(SSLPeerUnverifiedException(x.what()));
  } catch (const SSLException& x) {
    return std::make_exception_ptr(SSLException(x.what()));
  } catch (const SocketWriteException& x) {
    return std::make_exception_ptr(SocketWriteException(x.what(), x.errorNumber()));
  } catch (const std::exception& x) {
    return std::make_exception_ptr(IOException(x.what()));
  } catch (...) {
    return std::make_exception_ptr(IOException("stream failed"));
  }
}

}  // namespace tern::internal
