# A fast first build (docs/reproducing.md, "Build times"): each run of consecutive files of one
# source folder is compiled as one unit (build/unity/FOLDER_N.cc includes them), so the
# headers they share are parsed, and the templates they share instantiated, once per run
# instead of once per file. The units keep the files' order, so static initialisation (the
# key catalogue, the generated docs) runs in the same order as with one object per file.
# Names at file scope must differ between the files of a folder, anonymous namespaces
# included (scripts/check-unity-names.py, a test, finds overloads that would compile).
#
# The code that runs once per command, not once per cycle (the command line, configuration
# loading, sweeps and reports, closed-form models), compiles at -O1 in Release builds: 0.6 of
# the time -O3 takes, and the same results (no fast-math, and -ffp-contract=off: every level
# rounds as IEEE arithmetic does).
set(ICNSIM_ONCE_PER_RUN analytic cli config experiment)
set(ICNSIM_ONCE_PER_RUN_OPTIONS $<$<CONFIG:Release>:-O1>)

# src/nic/rails/x.cc -> nic_rails
function(icnsim_folder_name source out)
  get_filename_component(folder "${source}" DIRECTORY)
  file(RELATIVE_PATH folder "${PROJECT_SOURCE_DIR}/src" "${folder}")
  string(REPLACE "/" "_" folder "${folder}")
  set(${out} "${folder}" PARENT_SCOPE)
endfunction()

# Sets -O1 on `source` (a file of src/, or a unit named after its folder) when its folder is
# one of ICNSIM_ONCE_PER_RUN.
function(icnsim_optimise_for_its_folder source folder)
  if(folder IN_LIST ICNSIM_ONCE_PER_RUN)
    set_source_files_properties("${source}" PROPERTIES COMPILE_OPTIONS "${ICNSIM_ONCE_PER_RUN_OPTIONS}")
  endif()
endfunction()

# Compiles `sources` file by file: only the once-per-command folders need anything set.
function(icnsim_compile_file_by_file sources)
  foreach(source IN LISTS sources)
    icnsim_folder_name("${source}" folder)
    icnsim_optimise_for_its_folder("${source}" "${folder}")
  endforeach()
endfunction()

# Compiles `target`'s `sources` (in link order) as units of consecutive files of one folder.
function(icnsim_compile_in_units target sources)
  set(units)
  set(run_folder "")
  set(run_text "")
  foreach(source IN LISTS sources ITEMS "<end>")  # the last entry ends the last run
    if(source STREQUAL "<end>")
      set(folder "")
    else()
      icnsim_folder_name("${source}" folder)
    endif()
    if(NOT folder STREQUAL run_folder AND NOT run_text STREQUAL "")
      math(EXPR "runs_${run_folder}" "0${runs_${run_folder}} + 1")  # this folder's runs so far
      set(unit "${CMAKE_BINARY_DIR}/unity/${run_folder}_${runs_${run_folder}}.cc")
      file(CONFIGURE OUTPUT "${unit}" CONTENT "${run_text}" @ONLY)  # rewritten only when it changes
      icnsim_optimise_for_its_folder("${unit}" "${run_folder}")
      list(APPEND units "${unit}")
      set(run_text "")
    endif()
    set(run_folder "${folder}")
    string(APPEND run_text "#include \"${source}\"\n")
  endforeach()
  target_sources(${target} PRIVATE ${units})
  set_source_files_properties(${sources} PROPERTIES HEADER_FILE_ONLY ON)
endfunction()
