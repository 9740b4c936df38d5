# What `crd --version` and every result's root attributes say about the build: the project version,
# the git commit the sources were configured from ("unknown" outside a git checkout, e.g. a release
# tarball) and the build type. The commit is read at configure time; CMake configures again when
# HEAD or the branch it names moves, so a rebuild after a commit records the new one.
set(CRD_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE commit
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND commit)
    set(CRD_GIT_COMMIT ${commit})
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --symbolic-full-name HEAD
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE branch
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    foreach(ref HEAD ${branch})
      execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --path-format=absolute --git-path ${ref}
                      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE ref_file
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(ref_file AND EXISTS ${ref_file} AND NOT CMAKE_SCRIPT_MODE_FILE)
        set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ref_file})
      endif()
    endforeach()
  endif()
endif()
set(CRD_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
if(NOT CRD_BUILD_TYPE)
  set(CRD_BUILD_TYPE "unknown")
endif()
if(CMAKE_SCRIPT_MODE_FILE)  # cmake -DPROJECT_SOURCE_DIR=DIR -P cmake/Version.cmake (tests/install)
  message("commit=${CRD_GIT_COMMIT} build_type=${CRD_BUILD_TYPE}")
endif()
