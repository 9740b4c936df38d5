# The two locality-sensitive hash libraries crd compare-hashing measures against SHA-1: TLSH
# (Debian libtlsh-dev) and ssdeep (libfuzzy-dev). Neither ships a pkg-config file or a CMake
# package on Debian 12, so header and library are looked up directly; a missing one stops the
# configure step with the package to install. Defines the imported targets crd::tlsh, crd::fuzzy.
foreach(lib IN ITEMS tlsh fuzzy)
  if(lib STREQUAL "tlsh")
    set(header tlsh.h)
    set(package libtlsh-dev)
  else()
    set(header fuzzy.h)
    set(package libfuzzy-dev)
  endif()
  string(TOUPPER ${lib} upper)
  find_path(CRD_${upper}_INCLUDE_DIR ${header})
  find_library(CRD_${upper}_LIBRARY ${lib})
  if(NOT CRD_${upper}_INCLUDE_DIR OR NOT CRD_${upper}_LIBRARY)
    message(FATAL_ERROR "crd compare-hashing needs ${header} and lib${lib} (Debian: apt-get install ${package}, "
                        "or scripts/install_deps.sh)")
  endif()
  add_library(crd::${lib} UNKNOWN IMPORTED)
  set_target_properties(crd::${lib} PROPERTIES IMPORTED_LOCATION "${CRD_${upper}_LIBRARY}"
                                               INTERFACE_INCLUDE_DIRECTORIES "${CRD_${upper}_INCLUDE_DIR}")
endforeach()
