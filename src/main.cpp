// crd's entry point: everything happens in cli/.
#include "crd/cli/main.hpp"

int main(int argc, char** argv) { return crd::cli::run_main(argc, argv); }
