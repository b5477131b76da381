// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The whole public API in one include.
#pragma once

#include "tern/cache_control.h"
#include "tern/challenge.h"
#include "tern/exceptions.h"
#include "tern/headers.h"
#include "tern/http_date.h"
#include "tern/media_type.h"
#include "tern/version.h"
