// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The whole public API in one include.
#pragma once

#include "tern/buffer.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"
#include "tern/file_streams.h"
#include "tern/form_body.h"
#include "tern/forwarding_sink.h"
#include "tern/forwarding_source.h"
#include "tern/http_url.h"
#include "tern/multipart_body.h"
#include "tern/protocol.h"
#include "tern/request.h"
#include "tern/request_body.h"
#include "tern/response.h"
#include "tern/response_body.h"
#include "tern/sink.h"
#include "tern/source.h"
#include "tern/timeout.h"
#include "tern/version.h"
