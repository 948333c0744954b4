// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/write_checks.hpp"

#include "io/apiserver/admission.hpp"
#include "io/apiserver/stored_object.hpp"

#include <boost/json.hpp>

namespace tessera::apiserver {

namespace json = boost::json;

api_status undecodable(const resource_info& res, std::string_view why) {
  std::string msg{res.kind};
  msg += " in version \"";
  msg += res.version;
  msg += "\" cannot be handled as a ";
  msg += res.kind;
  msg += ": ";
  msg += why;
  return status::bad_request(std::move(msg));
}

std::optional<api_status> check_fields(const resource_info& res,
                                       std::string_view body, bool is_patch,
                                       json::object& obj,
                                       const write_options& options) {
  if (!options.validation)
    return std::nullopt;
  auto unknown = prune_unknown_fields(res, obj);
  if (*options.validation == field_validation::ignore)
    return std::nullopt;
  auto problems = field_problems(is_patch ? nullptr : &res, body);
  if (is_patch)
    for (const auto& path : unknown)
      problems.push_back("unknown field \"" + path + "\"");
  if (problems.empty())
    return std::nullopt;
  if (*options.validation == field_validation::strict) {
    std::string why = "strict decoding error: ";
    for (std::size_t i = 0; i < problems.size(); ++i) {
      if (i > 0)
        why += ", ";
      why += problems[i];
    }
    return undecodable(res, why);
  }
  if (options.warnings)
    for (auto& p : problems)
      options.warnings->push_back(std::move(p));
  return std::nullopt;
}

std::optional<api_status> check_decodable(const resource_info& res,
                                          std::string_view name,
                                          const json::value& doc,
                                          const write_options& options) {
  if (!options.validation)
    return std::nullopt;
  auto problem = model_decode_problem(res.storage, doc);
  if (!problem)
    return std::nullopt;
  // "<path>: <problem>"; the path is the field.
  auto colon = problem->find(": ");
  std::string field
    = colon == std::string::npos ? std::string{} : problem->substr(0, colon);
  std::string detail
    = colon == std::string::npos ? *problem : problem->substr(colon + 2);
  return status::invalid(
    res.kind, res.group, name,
    {status_cause{"FieldValueInvalid", "Invalid value: " + detail, field}});
}

std::vector<status_cause> validation_causes(const resource_info& res,
                                            const json::object& obj,
                                            const write_options& options) {
  auto causes = admission::validate(res.storage, obj);
  if (options.validation)
    for (auto& c : admission::validate_quantities(res.storage, obj))
      causes.push_back(std::move(c));
  return causes;
}

std::optional<api_status> check_quantities_parse(const resource_info& res,
                                                 const json::object& obj,
                                                 const write_options& options) {
  if (!options.validation)
    return std::nullopt;
  if (auto bad = admission::unparsable_quantity(res.storage, obj))
    return undecodable(res, *bad);
  return std::nullopt;
}

} // namespace tessera::apiserver
