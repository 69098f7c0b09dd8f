// A libFuzzer-compatible driver for machines without clang's libFuzzer: it
// runs a fuzz target (LLVMFuzzerTestOneInput) over files and corpus
// directories, then optionally over randomly mutated corpus inputs for a
// number of inputs or seconds. No coverage feedback: it finds what plain
// mutation of good seeds finds, which is what CI needs to stay honest.
//
//   fuzz_<target> [-runs=N] [-max_total_time=S] [-seed=S] [-timeout=S]
//                 [-max_len=N] [-artifact_prefix=DIR/] FILE_OR_DIR...
//
// Without -runs or -max_total_time it only replays the given inputs. A
// crash, abort, sanitizer report or an input running past -timeout writes
// the input to <artifact_prefix>crash-<n> (timeout-<n>) and exits non-zero.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// Targets with structure-aware mutation define this (libFuzzer's contract).
extern "C" __attribute__((weak)) size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                                                unsigned int seed);
// Present only in sanitizer builds: lets the driver save the input before
// the sanitizer exits.
extern "C" __attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

namespace {

// What the signal handlers need, set before each input runs.
const uint8_t* g_input = nullptr;
size_t g_input_size = 0;
const char* g_input_label = "";
std::string g_artifact_prefix;
std::mt19937_64 g_random;

void WriteArtifact(const char* kind) {
  // Only async-signal-safe calls from here on.
  char path[4096];
  std::snprintf(path, sizeof(path), "%s%s-%d", g_artifact_prefix.c_str(), kind, static_cast<int>(getpid()));
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    if (g_input_size > 0 && write(fd, g_input, g_input_size) < 0) {
      // Nothing more to do in a dying process.
    }
    close(fd);
  }
  char line[8192];
  const int n = std::snprintf(line, sizeof(line), "\nfuzz driver: %s on input %s (%zu bytes), saved as %s\n", kind,
                              g_input_label, g_input_size, path);
  if (n > 0 && write(STDERR_FILENO, line, static_cast<size_t>(n)) < 0) {
  }
}

void OnCrashSignal(int signal_number) {
  WriteArtifact(signal_number == SIGALRM ? "timeout" : "crash");
  signal(signal_number, SIG_DFL);
  raise(signal_number == SIGALRM ? SIGKILL : signal_number);
}

void OnSanitizerDeath() { WriteArtifact("crash"); }

void InstallHandlers() {
  for (int s : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL, SIGALRM}) signal(s, OnCrashSignal);
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(OnSanitizerDeath);
}

bool ReadFile(const std::string& path, std::vector<uint8_t>* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// Regular files directly in `path` (a corpus directory), or `path` itself.
void CollectInputs(const std::string& path, std::vector<std::string>* files) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    std::fprintf(stderr, "fuzz driver: %s: no such file or directory\n", path.c_str());
    std::exit(2);
  }
  if (!S_ISDIR(info.st_mode)) {
    files->push_back(path);
    return;
  }
  std::vector<std::string> found;
  if (DIR* dir = opendir(path.c_str())) {
    while (dirent* entry = readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      const std::string child = path + "/" + entry->d_name;
      if (stat(child.c_str(), &info) == 0 && S_ISREG(info.st_mode)) found.push_back(child);
    }
    closedir(dir);
  }
  std::sort(found.begin(), found.end());  // the same order on every machine
  files->insert(files->end(), found.begin(), found.end());
}

void RunOne(const std::vector<uint8_t>& bytes, const char* label, unsigned timeout_s) {
  g_input = bytes.data();
  g_input_size = bytes.size();
  g_input_label = label;
  alarm(timeout_s);
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  alarm(0);
}

bool FlagValue(const char* arg, const char* name, std::string* value) {
  const size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  *value = arg + n + 1;
  return true;
}

}  // namespace

// libFuzzer's byte mutator, which custom mutators call; this one picks one
// of a few classic edits at random.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) {
  const uint8_t interesting[] = {0, 1, 0x7f, 0x80, 0xff, '0', '9', '-', '"', '{', '}', '[', ']', ','};
  const size_t at = size == 0 ? 0 : g_random() % size;
  switch (g_random() % 6) {
    case 0:
      if (size > 0) data[at] ^= static_cast<uint8_t>(1u << (g_random() % 8));
      return size;
    case 1:
      if (size > 0) data[at] = interesting[g_random() % sizeof(interesting)];
      return size;
    case 2:
      if (size > 0) data[at] = static_cast<uint8_t>(g_random());
      return size;
    case 3:  // insert a byte
      if (size >= max_size) return size;
      std::memmove(data + at + 1, data + at, size - at);
      data[at] = static_cast<uint8_t>(g_random());
      return size + 1;
    case 4:  // erase a run
      if (size == 0) return 0;
      {
        const size_t n = std::min<size_t>(size - at, 1 + g_random() % 8);
        std::memmove(data + at, data + at + n, size - at - n);
        return size - n;
      }
    default:  // copy a run over another place
      if (size < 2) return size;
      {
        const size_t from = g_random() % size;
        const size_t n = std::min<size_t>({size - from, size - at, 1 + g_random() % 16});
        std::memmove(data + at, data + from, n);
        return size;
      }
  }
}

int main(int argc, char** argv) {
  uint64_t runs = 0;
  double max_seconds = 0;
  uint64_t seed = 1;
  unsigned timeout_s = 25;
  size_t max_len = 64 * 1024;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string value;
    if (FlagValue(argv[i], "-runs", &value)) {
      runs = std::strtoull(value.c_str(), nullptr, 10);
    } else if (FlagValue(argv[i], "-max_total_time", &value)) {
      max_seconds = std::strtod(value.c_str(), nullptr);
    } else if (FlagValue(argv[i], "-seed", &value)) {
      seed = std::strtoull(value.c_str(), nullptr, 10);
    } else if (FlagValue(argv[i], "-timeout", &value)) {
      timeout_s = static_cast<unsigned>(std::strtoul(value.c_str(), nullptr, 10));
    } else if (FlagValue(argv[i], "-max_len", &value)) {
      max_len = std::strtoull(value.c_str(), nullptr, 10);
    } else if (FlagValue(argv[i], "-artifact_prefix", &value)) {
      g_artifact_prefix = value;
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "fuzz driver: unknown flag %s\n", argv[i]);
      return 2;
    } else {
      CollectInputs(argv[i], &files);
    }
  }
  InstallHandlers();
  g_random.seed(seed);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress lines survive a crash

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::vector<std::vector<uint8_t>> corpus;
  for (const std::string& file : files) {
    std::vector<uint8_t> bytes;
    if (!ReadFile(file, &bytes)) {
      std::fprintf(stderr, "fuzz driver: cannot read %s\n", file.c_str());
      return 2;
    }
    RunOne(bytes, file.c_str(), timeout_s);
    corpus.push_back(std::move(bytes));
  }
  std::printf("fuzz driver: replayed %zu inputs in %.1f s\n", corpus.size(), elapsed());

  if (runs == 0 && max_seconds <= 0) return 0;
  if (corpus.empty()) corpus.push_back({});
  const double mutate_start = elapsed();
  uint64_t done = 0;
  std::vector<uint8_t> buffer;
  while ((runs == 0 || done < runs) && (max_seconds <= 0 || elapsed() - mutate_start < max_seconds)) {
    const std::vector<uint8_t>& base = corpus[g_random() % corpus.size()];
    const size_t limit = std::max(max_len, base.size());
    buffer.assign(base.begin(), base.end());
    buffer.resize(limit);
    size_t size = base.size();
    const int edits = 1 + static_cast<int>(g_random() % 4);
    for (int e = 0; e < edits; ++e) {
      size = LLVMFuzzerCustomMutator != nullptr
                 ? LLVMFuzzerCustomMutator(buffer.data(), size, limit, static_cast<unsigned>(g_random()))
                 : LLVMFuzzerMutate(buffer.data(), size, limit);
    }
    buffer.resize(size);
    RunOne(buffer, "<mutated>", timeout_s);
    ++done;
  }
  std::printf("fuzz driver: %llu mutated inputs (%s mutation, seed %llu) in %.1f s, 0 crashes\n",
              static_cast<unsigned long long>(done),
              LLVMFuzzerCustomMutator != nullptr ? "structure-aware" : "byte", static_cast<unsigned long long>(seed),
              elapsed() - mutate_start);
  return 0;
}
