# `cmake --install build --prefix P` lays crd out as HPC sites install software (GNUInstallDirs):
#   P/bin/crd
#   P/share/crd/configs/*.ini        the presets (`--config NAME` finds them, docs/install.md)
#   P/share/crd/slurm/*.sbatch       the Slurm templates (they run `crd` from PATH)
#   P/share/crd/analysis/            the Python result reader, the plotting script, the notebook
#   P/share/doc/crd/                 README.md and docs/
#   P/share/bash-completion/completions/crd   bash completion, generated from the command table
#                                    by the crd just built (`crd --completion bash`)
#   P/share/man/man1/crd.1           the man page, generated from the command table and the option
#                                    registry by the crd just built (`crd --man`)
#   P/share/modulefiles/crd/VERSION.lua   an Lmod modulefile: PATH, MANPATH and CRD_HOME (= P/share/crd),
#                                    computed from the modulefile's own location, so a moved
#                                    prefix still works
# install(FILES/DIRECTORY) only writes the files it names, so a user's own files under P stay.
include(GNUInstallDirs)
# `install` (and CPack's preinstall) need crd only, not every test target: scripts/package.sh builds it.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

set(CRD_INSTALL_HOME ${CMAKE_INSTALL_DATADIR}/crd)

install(TARGETS crd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${CRD_INSTALL_HOME}/configs
        FILES_MATCHING PATTERN "*.ini")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/slurm/ DESTINATION ${CRD_INSTALL_HOME}/slurm
        FILES_MATCHING PATTERN "*.sbatch"
        PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
install(FILES ${PROJECT_SOURCE_DIR}/analysis/crd_results.py ${PROJECT_SOURCE_DIR}/analysis/explore.ipynb
        DESTINATION ${CRD_INSTALL_HOME}/analysis)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/analysis/plot_results.py DESTINATION ${CRD_INSTALL_HOME}/analysis)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")

set(CRD_COMPLETION ${PROJECT_BINARY_DIR}/completion/crd)
add_custom_command(TARGET crd POST_BUILD
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/completion
                   COMMAND sh -c "\"$0\" --completion bash > \"$1\"" $<TARGET_FILE:crd> ${CRD_COMPLETION}
                   VERBATIM)
install(FILES ${CRD_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

set(CRD_MAN_PAGE ${PROJECT_BINARY_DIR}/man/crd.1)
add_custom_command(TARGET crd POST_BUILD
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
                   COMMAND sh -c "\"$0\" --man > \"$1\"" $<TARGET_FILE:crd> ${CRD_MAN_PAGE}
                   VERBATIM)
install(FILES ${CRD_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

configure_file(${PROJECT_SOURCE_DIR}/cmake/crd-modulefile.lua.in ${PROJECT_BINARY_DIR}/modulefile/${PROJECT_VERSION}.lua
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/modulefile/${PROJECT_VERSION}.lua
        DESTINATION ${CMAKE_INSTALL_DATADIR}/modulefiles/crd)

# CPack: a Debian package (scripts/package.sh). Depends names Debian 12's runtime packages of
# every library crd links (checked with dpkg -S on `ldd crd`), not the -dev packages it builds with.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME crd)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "crd maintainers <crd@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "precise content-reuse detection in web crawls (MPI, HDF5)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_STRIP_FILES TRUE)  # the debug info stays in the build tree (a 3x smaller .deb)
set(CRD_DEBIAN_DEPENDS
  libopenmpi3 openmpi-bin libhdf5-openmpi-103-1 libgumbo1 libicu72 libpsl5 libtlsh0 libfuzzy2
  libboost-program-options1.74.0 libssl3 zlib1g libisal2 libstdc++6 libc6 libgcc-s1)
list(JOIN CRD_DEBIAN_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-h5py, python3-pandas, python3-matplotlib, lmod")
include(CPack)
