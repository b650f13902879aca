//===- AsyncRuntime.cpp - the mlirAsyncRuntime* functions for the runner --===//
//
// `convert-async-to-llvm` turns async.execute/await into calls of the
// mlirAsyncRuntime* C ABI (mlir/ExecutionEngine/AsyncRuntime.h). This is an
// implementation of that ABI on the C++ standard library only, so the
// self-contained runner needs neither libmlir_async_runtime.so nor libLLVM:
//
// * Tokens and values start with two references, one for the code that waits
//   on them and one for the coroutine that makes them available; emplacing
//   (or setting an error) releases the second. Groups start with one.
// * Coroutines queued with mlirAsyncRuntimeExecute run on a fixed pool of
//   worker threads; continuations registered on an object that is not ready
//   run on the thread that makes it ready, immediately when it already is.
// * Blocking waits (mlirAsyncRuntimeAwait*) sleep on the object's condition
//   variable.
// * warpAsyncRuntimeDrain waits for every queued or running task; the runner
//   calls it when the entry point returns, before the JIT'd code goes away.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using Continuation = std::function<void()>;

/// A fixed set of worker threads draining one queue. Never destroyed: its
/// threads may still wait on the queue while the process exits.
class WorkerPool {
public:
  WorkerPool() {
    unsigned count = std::max(2u, std::thread::hardware_concurrency());
    if (const char *env = std::getenv("WARP_ASYNC_WORKERS"))
      count = std::max(1, std::atoi(env));
    for (unsigned i = 0; i < count; ++i)
      std::thread([this] { work(); }).detach();
    size = count;
  }

  void enqueue(Continuation task) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      tasks.push_back(std::move(task));
      ++inFlight;
    }
    ready.notify_one();
  }

  /// Waits until no task is queued or running: the JIT'd code the tasks run
  /// (coroutine bodies) may be freed after that.
  void drain() {
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait(lock, [this] { return inFlight == 0; });
  }

  unsigned size = 0;

private:
  void work() {
    for (;;) {
      Continuation task;
      {
        std::unique_lock<std::mutex> lock(mutex);
        ready.wait(lock, [this] { return !tasks.empty(); });
        task = std::move(tasks.front());
        tasks.pop_front();
      }
      task();
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (--inFlight == 0)
          idle.notify_all();
      }
    }
  }

  std::mutex mutex;
  std::condition_variable ready;
  std::condition_variable idle;
  std::deque<Continuation> tasks;
  int64_t inFlight = 0;
};

WorkerPool &pool() {
  static WorkerPool *instance = new WorkerPool();
  return *instance;
}

/// What tokens, values and groups share: a reference count, a state that
/// goes from pending to available or error exactly once, and the
/// continuations waiting for that.
struct AsyncObject {
  explicit AsyncObject(int64_t references) : references(references) {}
  virtual ~AsyncObject() = default;

  void addRef(int64_t count) { references.fetch_add(count); }
  void dropRef(int64_t count) {
    int64_t previous = references.fetch_sub(count);
    if (previous == count)
      delete this;
    else if (previous < count) {
      std::fprintf(stderr, "warp-async-runtime: reference count below zero\n");
      std::abort();
    }
  }

  bool isDone() {
    std::lock_guard<std::mutex> lock(mutex);
    return done;
  }

  /// Marks the object available (or failed) and runs what waited for it.
  void complete(bool failed) {
    std::vector<Continuation> waiting;
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      error = error || failed;
      waiting.swap(continuations);
    }
    changed.notify_all();
    for (Continuation &continuation : waiting)
      continuation();
  }

  /// complete(), then drops the producer's reference.
  void completeAndRelease(bool failed) {
    complete(failed);
    dropRef(1);
  }

  /// Runs `continuation` once the object is done: now if it is.
  void whenDone(Continuation continuation) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!done) {
        continuations.push_back(std::move(continuation));
        return;
      }
    }
    continuation();
  }

  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [this] { return done; });
  }

  bool hasError() {
    std::lock_guard<std::mutex> lock(mutex);
    return error;
  }

  std::atomic<int64_t> references;
  std::mutex mutex;
  std::condition_variable changed;
  bool done = false;
  bool error = false;
  std::vector<Continuation> continuations;
};

struct Token : AsyncObject {
  Token() : AsyncObject(2) {}
};

struct Value : AsyncObject {
  explicit Value(int64_t bytes)
      : AsyncObject(2),
        storage(static_cast<size_t>(std::max<int64_t>(bytes, 1))) {}
  std::vector<std::byte> storage;
};

/// Done when every token added so far is; tokens are added before anyone
/// waits on the group (the lowering adds them all, then awaits).
struct Group : AsyncObject {
  Group() : AsyncObject(1) {}
  int64_t added = 0;
  int64_t pending = 0;
  bool anyError = false;

  void tokenDone(bool failed) {
    bool last;
    {
      std::lock_guard<std::mutex> lock(mutex);
      anyError = anyError || failed;
      last = --pending == 0;
    }
    if (last)
      complete(anyError);
  }
};

using CoroHandle = void *;
using CoroResume = void (*)(void *);

Continuation resumeOf(CoroHandle handle, CoroResume resume) {
  return [handle, resume] { resume(handle); };
}

} // namespace

extern "C" {

void mlirAsyncRuntimeAddRef(void *object, int64_t count) {
  static_cast<AsyncObject *>(object)->addRef(count);
}

void mlirAsyncRuntimeDropRef(void *object, int64_t count) {
  static_cast<AsyncObject *>(object)->dropRef(count);
}

void *mlirAsyncRuntimeCreateToken() { return new Token(); }

void *mlirAsyncRuntimeCreateValue(int64_t bytes) { return new Value(bytes); }

void *mlirAsyncRuntimeCreateGroup(int64_t /*sizeHint*/) {
  Group *group = new Group();
  // An empty group is done at once; adding a token reopens it.
  group->done = true;
  return group;
}

int64_t mlirAsyncRuntimeAddTokenToGroup(void *tokenPtr, void *groupPtr) {
  auto *token = static_cast<Token *>(tokenPtr);
  auto *group = static_cast<Group *>(groupPtr);
  int64_t rank;
  {
    std::lock_guard<std::mutex> lock(group->mutex);
    rank = group->added++;
    ++group->pending;
    group->done = false;
  }
  group->addRef(1); // released once the token is done
  token->whenDone([token, group] {
    group->tokenDone(token->hasError());
    group->dropRef(1);
  });
  return rank;
}

// Making a token or value available (or failed) releases the reference its
// producer held.
void mlirAsyncRuntimeEmplaceToken(void *token) {
  static_cast<Token *>(token)->completeAndRelease(false);
}

void mlirAsyncRuntimeEmplaceValue(void *value) {
  static_cast<Value *>(value)->completeAndRelease(false);
}

void mlirAsyncRuntimeSetTokenError(void *token) {
  static_cast<Token *>(token)->completeAndRelease(true);
}

void mlirAsyncRuntimeSetValueError(void *value) {
  static_cast<Value *>(value)->completeAndRelease(true);
}

bool mlirAsyncRuntimeIsTokenError(void *token) {
  return static_cast<Token *>(token)->hasError();
}

bool mlirAsyncRuntimeIsValueError(void *value) {
  return static_cast<Value *>(value)->hasError();
}

bool mlirAsyncRuntimeIsGroupError(void *group) {
  return static_cast<Group *>(group)->hasError();
}

void mlirAsyncRuntimeAwaitToken(void *token) {
  static_cast<Token *>(token)->wait();
}

void mlirAsyncRuntimeAwaitValue(void *value) {
  static_cast<Value *>(value)->wait();
}

void mlirAsyncRuntimeAwaitAllInGroup(void *group) {
  static_cast<Group *>(group)->wait();
}

std::byte *mlirAsyncRuntimeGetValueStorage(void *value) {
  return static_cast<Value *>(value)->storage.data();
}

void mlirAsyncRuntimeExecute(CoroHandle handle, CoroResume resume) {
  pool().enqueue(resumeOf(handle, resume));
}

void mlirAsyncRuntimeAwaitTokenAndExecute(void *token, CoroHandle handle,
                                          CoroResume resume) {
  static_cast<Token *>(token)->whenDone(resumeOf(handle, resume));
}

void mlirAsyncRuntimeAwaitValueAndExecute(void *value, CoroHandle handle,
                                          CoroResume resume) {
  static_cast<Value *>(value)->whenDone(resumeOf(handle, resume));
}

void mlirAsyncRuntimeAwaitAllInGroupAndExecute(void *group, CoroHandle handle,
                                               CoroResume resume) {
  static_cast<Group *>(group)->whenDone(resumeOf(handle, resume));
}

/// Not part of MLIR's ABI: the runner calls it after the entry point
/// returns, before the JIT frees the code worker threads may still be in (a
/// coroutine goes on running after it made the token its caller awaited
/// available).
void warpAsyncRuntimeDrain() { pool().drain(); }

// The spelling of MLIR 22's ABI (sic).
int64_t mlirAsyncRuntimGetNumWorkerThreads() { return pool().size; }

void mlirAsyncRuntimePrintCurrentThreadId() {
  std::printf("Current thread id: %zu\n",
              std::hash<std::thread::id>()(std::this_thread::get_id()));
  std::fflush(stdout);
}

} // extern "C"
