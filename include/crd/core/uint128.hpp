// A 128-bit unsigned integer (GCC/Clang extension), named once so -Wpedantic stays quiet.
#pragma once

namespace crd {

__extension__ typedef unsigned __int128 uint128;

}  // namespace crd
