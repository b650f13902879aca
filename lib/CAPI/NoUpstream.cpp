//===- NoUpstream.cpp - warpRegisterAllUpstream, self-contained -----------===//
//
// The self-contained library leaves the upstream dialects and passes that
// GPU programs do not need out, to stay small.

#include "WarpDialect-c/Warp.h"

bool warpRegisterAllUpstream(MlirDialectRegistry) { return false; }
