// The text form of result files: flat arrays on one line, nesting indented, and the same
// value back when parsed.
#include <gtest/gtest.h>

#include "common/json_text.h"

namespace {

TEST(JsonText, FlatArraysStayOnOneLineAndObjectsIndent) {
  nlohmann::json j = {{"a", 1}, {"h", {{"counts", {0, 3, 1}}}}, {"rows", {{{"x", 1}}, {{"x", 2}}}},
                      {"e", nlohmann::json::array()}, {"s", "t\"q"}};
  EXPECT_EQ(icnsim::jsonText(j),
            "{\n"
            "  \"a\": 1,\n"
            "  \"e\": [],\n"
            "  \"h\": {\n"
            "    \"counts\": [0,3,1]\n"
            "  },\n"
            "  \"rows\": [\n"
            "    {\n"
            "      \"x\": 1\n"
            "    },\n"
            "    {\n"
            "      \"x\": 2\n"
            "    }\n"
            "  ],\n"
            "  \"s\": \"t\\\"q\"\n"
            "}\n");
}

TEST(JsonText, ParsesBackToTheSameValue) {
  nlohmann::json j = {{"f", 0.1}, {"big", uint64_t{1} << 63}, {"neg", -3}, {"n", nullptr},
                      {"mixed", {1, {{"k", {1.5, 2.5}}}, "s"}}, {"o", nlohmann::json::object()}};
  EXPECT_EQ(nlohmann::json::parse(icnsim::jsonText(j)), j);
  EXPECT_EQ(icnsim::jsonText(7), "7\n");
}

}  // namespace
