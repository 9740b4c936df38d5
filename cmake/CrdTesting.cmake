# Test registration helpers.
#   crd_add_test(name SOURCES a.cpp … LIBS crd_io)   plain GoogleTest binary, one CTest test
#   crd_add_mpi_test(name SOURCES … LIBS … RANKS 1 2 3 4)  GoogleTest under mpirun, one test per rank count
#   crd_add_script_test(name COMMAND … [RANKS n])    a shell/python integration test
# Every GoogleTest binary also has the label `cpp` (scripts/test_sanitized.sh runs `-L 'cpp|hostile'`);
# every test gets SKIP_RETURN_CODE 77, so a test whose data or tool is absent is reported skipped.
# Tests find shared data through CRD_SHARED_DIR (../shared beside the repo; tests skip with a
# message when it is absent) and the documentation corpus through CRD_CORPUS_DIR. Python tests import
# their helpers (crd_integ, archives, …) from tests/support, which PYTHONPATH names (by hand:
# PYTHONPATH=tests/support python3 tests/integration/test_….py).

set(CRD_SHARED_DIR "${PROJECT_SOURCE_DIR}/../shared" CACHE PATH "shared/ data and notes beside the repo")
set(CRD_CORPUS_DIR "${PROJECT_SOURCE_DIR}/.cache/corpus" CACHE PATH "Debian documentation corpus (scripts/fetch_corpus.sh)")
set(CRD_PYTHON "/usr/bin/python3" CACHE FILEPATH "Python with h5py (Debian's)")

# mpirun refuses root without these; more ranks than cores needs oversubscription.
set(CRD_MPI_ENV
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  OMPI_MCA_btl_vader_single_copy_mechanism=none)
set(CRD_TEST_ENV
  CRD_SHARED_DIR=${CRD_SHARED_DIR} CRD_CORPUS_DIR=${CRD_CORPUS_DIR} CRD_SOURCE_DIR=${PROJECT_SOURCE_DIR}
  CRD_BINARY=$<TARGET_FILE:crd> CRD_PYTHON=${CRD_PYTHON} MPIEXEC=${MPIEXEC_EXECUTABLE} ${CRD_MPI_ENV}
  PYTHONPATH=${PROJECT_SOURCE_DIR}/tests/support)

# A module's tests see its private headers (src/<module>/, LevelDB's rule): tests/<module>/ is
# matched to src/<module>/ by directory name.
function(crd_private_headers target)
  get_filename_component(module ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/src/${module})
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src/${module})
  endif()
endfunction()

function(crd_add_test name)
  cmake_parse_arguments(A "" "TIMEOUT" "SOURCES;LABELS;LIBS" ${ARGN})
  add_executable(${name} ${A_SOURCES})
  target_link_libraries(${name} PRIVATE ${A_LIBS} crd_test_support GTest::gtest GTest::gtest_main)
  target_compile_options(${name} PRIVATE ${CRD_WARNINGS})
  crd_private_headers(${name})
  add_test(NAME ${name} COMMAND ${name})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${A_TIMEOUT} ENVIRONMENT "${CRD_TEST_ENV}"
                       LABELS "unit;cpp;${A_LABELS}"
                       SKIP_RETURN_CODE 77)
endfunction()

function(crd_add_mpi_test name)
  cmake_parse_arguments(A "" "TIMEOUT" "SOURCES;RANKS;LABELS;LIBS" ${ARGN})
  if(NOT A_RANKS)
    set(A_RANKS 1 2 3 4)
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)  # a failed assertion on one rank can leave the others in a collective
  endif()
  add_executable(${name} ${A_SOURCES})
  target_link_libraries(${name} PRIVATE ${A_LIBS} crd_test_support crd_mpi_test_main GTest::gtest)
  target_compile_options(${name} PRIVATE ${CRD_WARNINGS})
  crd_private_headers(${name})
  foreach(n IN LISTS A_RANKS)
    add_test(NAME ${name}.np${n}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n} $<TARGET_FILE:${name}>)
    set_tests_properties(${name}.np${n} PROPERTIES TIMEOUT ${A_TIMEOUT} PROCESSORS ${n}
                         ENVIRONMENT "${CRD_TEST_ENV}" LABELS "mpi;cpp;${A_LABELS}"
                         SKIP_RETURN_CODE 77)
  endforeach()
endfunction()

function(crd_add_script_test name)
  cmake_parse_arguments(A "" "TIMEOUT;PROCESSORS" "COMMAND;LABELS" ${ARGN})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 300)
  endif()
  if(NOT A_PROCESSORS)
    set(A_PROCESSORS 1)
  endif()
  add_test(NAME ${name} COMMAND ${A_COMMAND})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${A_TIMEOUT} PROCESSORS ${A_PROCESSORS}
                       ENVIRONMENT "${CRD_TEST_ENV}" LABELS "integration;${A_LABELS}"
                       SKIP_RETURN_CODE 77)
endfunction()
