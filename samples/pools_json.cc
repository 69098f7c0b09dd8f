#include "samples/pools_json.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace glpool::samples {
namespace {

constexpr size_t kMaxPoolsFileBytes = 1 << 20;

StatusOr<std::vector<std::string>> Strings(const nlohmann::json& pool, const char* key, const std::string& where) {
  std::vector<std::string> values;
  if (!pool.contains(key)) return values;
  if (!pool[key].is_array()) return InvalidArgumentError(where + ": \"" + key + "\" must be a list of strings");
  for (const auto& item : pool[key]) {
    if (!item.is_string()) return InvalidArgumentError(where + ": \"" + key + "\" must be a list of strings");
    values.push_back(item.get<std::string>());
  }
  return values;
}

StatusOr<DataType> DataTypeNamed(const std::string& name, const std::string& where) {
  for (DataType type : {DataType::kFloat32, DataType::kFloat16, DataType::kFloat64, DataType::kInt8, DataType::kUint8,
                        DataType::kInt16, DataType::kInt32, DataType::kInt64, DataType::kBool}) {
    if (name == DataTypeName(type)) return type;
  }
  return InvalidArgumentError(where + ": unknown dtype '" + name + "' (float32, float16, int64, bool, ...)");
}

}  // namespace

StatusOr<std::vector<NamedPool>> ParseNamedPools(const std::string& text, const std::string& label) {
  const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
  if (root.is_discarded()) return InvalidArgumentError(label + ": not valid JSON");
  if (!root.is_object() || !root.contains("pools") || !root["pools"].is_array()) {
    return InvalidArgumentError(label + ": expected {\"pools\": [...]}");
  }
  const std::set<std::string> known = {"name", "tensors", "op_types", "dtypes", "objects", "precision", "strategy"};
  std::vector<NamedPool> pools;
  for (size_t i = 0; i < root["pools"].size(); ++i) {
    const nlohmann::json& entry = root["pools"][i];
    std::string where = label + ": pool " + std::to_string(i);
    if (!entry.is_object()) return InvalidArgumentError(where + ": expected an object");
    if (!entry.contains("name") || !entry["name"].is_string()) {
      return InvalidArgumentError(where + ": \"name\" (a string) is required");
    }
    NamedPool pool;
    pool.name = entry["name"].get<std::string>();
    where = label + ": pool '" + pool.name + "'";
    for (const auto& [key, value] : entry.items()) {
      if (!known.count(key)) return InvalidArgumentError(where + ": unknown key \"" + key + "\"");
    }
    GLPOOL_ASSIGN_OR_RETURN(pool.tensors, Strings(entry, "tensors", where));
    GLPOOL_ASSIGN_OR_RETURN(pool.op_types, Strings(entry, "op_types", where));
    GLPOOL_ASSIGN_OR_RETURN(std::vector<std::string> dtypes, Strings(entry, "dtypes", where));
    for (const std::string& name : dtypes) {
      GLPOOL_ASSIGN_OR_RETURN(DataType type, DataTypeNamed(name, where));
      pool.dtypes.push_back(type);
    }
    for (const char* key : {"objects", "precision", "strategy"}) {
      if (entry.contains(key) && !entry[key].is_string()) {
        return InvalidArgumentError(where + ": \"" + key + "\" must be a string");
      }
    }
    if (entry.contains("objects")) {
      StatusOr<ObjectKind> objects = ParseObjectKind(entry["objects"].get<std::string>());
      if (!objects.ok()) return objects.status().WithContext(where);
      pool.objects = *objects;
    }
    if (entry.contains("precision")) {
      StatusOr<Precision> precision = ParsePrecision(entry["precision"].get<std::string>());
      if (!precision.ok()) return precision.status().WithContext(where);
      pool.precision = *precision;
    }
    if (entry.contains("strategy")) pool.strategy = entry["strategy"].get<std::string>();
    pools.push_back(std::move(pool));
  }
  return pools;
}

StatusOr<std::vector<NamedPool>> LoadNamedPoolsFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError("--pools " + path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxPoolsFileBytes) {
    return InvalidArgumentError("--pools " + path + ": larger than " + std::to_string(kMaxPoolsFileBytes) + " bytes");
  }
  return ParseNamedPools(text.str(), "--pools " + path);
}

}  // namespace glpool::samples
