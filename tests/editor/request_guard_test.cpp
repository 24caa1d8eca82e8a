#include <gtest/gtest.h>

#include "editor/request_guard.h"

namespace spindrift::editor {
namespace {

TEST(RequestGuard, AcceptsLoopbackAndLocalhostOnTheServersPort) {
    EXPECT_TRUE(checkRequestHeaders("127.0.0.1:8123", "", 8123).allowed);
    EXPECT_TRUE(checkRequestHeaders("localhost:8123", "", 8123).allowed);
    EXPECT_TRUE(checkRequestHeaders("127.0.0.1:8123", "http://127.0.0.1:8123", 8123).allowed);
    EXPECT_TRUE(checkRequestHeaders("localhost:8123", "http://localhost:8123", 8123).allowed);
}

TEST(RequestGuard, RefusesAnotherHostAsDnsRebindingWouldSend) {
    for (const char* host : {"evil.example:8123", "127.0.0.1", "127.0.0.1:8124", "",
                             "localhost.evil.example:8123", "0.0.0.0:8123", "[::1]:8123"}) {
        const GuardVerdict v = checkRequestHeaders(host, "", 8123);
        EXPECT_FALSE(v.allowed) << host;
        EXPECT_NE(v.reason.find("Host"), std::string::npos) << v.reason;
    }
}

TEST(RequestGuard, RefusesAForeignOrOpaqueOrigin) {
    for (const char* origin : {"http://evil.example", "http://127.0.0.1:8124", "null",
                               "https://127.0.0.1:8123", "http://localhost:8123"}) {
        const GuardVerdict v = checkRequestHeaders("127.0.0.1:8123", origin, 8123);
        EXPECT_FALSE(v.allowed) << origin;
        EXPECT_NE(v.reason.find("origin"), std::string::npos) << v.reason;
    }
}

TEST(RequestGuard, RefusesWhatAnotherSiteEmbedsEvenWithoutOrigin) {
    EXPECT_TRUE(checkRequestHeaders("127.0.0.1:8123", "", 8123, "same-origin").allowed);
    EXPECT_TRUE(checkRequestHeaders("127.0.0.1:8123", "", 8123, "none").allowed);
    for (const char* site : {"cross-site", "same-site"}) {
        const GuardVerdict v = checkRequestHeaders("127.0.0.1:8123", "", 8123, site);
        EXPECT_FALSE(v.allowed) << site;
        EXPECT_NE(v.reason.find("another site"), std::string::npos) << v.reason;
    }
}

} // namespace
} // namespace spindrift::editor
