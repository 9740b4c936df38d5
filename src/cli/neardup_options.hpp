// crd neardup's own option group (seed 002's parameters, each defaulting to the seed's value).
#pragma once

#include <boost/program_options.hpp>

#include "crd/pipeline/neardup_pipeline.hpp"

namespace crd::cli {

boost::program_options::options_description neardup_options(pipeline::NeardupOptions& options);

}  // namespace crd::cli
