// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The whole public API in one include.
#pragma once

#include "tern/exceptions.h"
#include "tern/http_url.h"
#include "tern/version.h"
