#include "plugins/elf_exports.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <vector>

namespace aev::plugins {

namespace {

// Larger files are not plausible plugins; reading them whole would waste memory.
constexpr std::size_t kMaxFileBytes = 512u * 1024 * 1024;

#if defined(__x86_64__)
constexpr int kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr int kHostMachine = EM_AARCH64;
#else
constexpr int kHostMachine = -1;  // unknown: do not check
#endif

template <class T>
bool readAt(const std::vector<char>& file, std::uint64_t offset, T& out) {
  if (offset > file.size() || file.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, file.data() + offset, sizeof(T));
  return true;
}

}  // namespace

ElfExports readElfExports(const std::string& path) {
  ElfExports result;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    result.error = "cannot open file";
    return result;
  }
  auto size = static_cast<std::size_t>(in.tellg());
  if (size > kMaxFileBytes) {
    result.error = "file too large for a plugin";
    return result;
  }
  std::vector<char> file(size);
  in.seekg(0);
  in.read(file.data(), static_cast<std::streamsize>(size));
  if (!in) {
    result.error = "cannot read file";
    return result;
  }

  Elf64_Ehdr eh;
  if (!readAt(file, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    result.error = "not an ELF shared object";
    return result;
  }
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    result.error = "not a 64-bit little-endian ELF file";
    return result;
  }
  if (eh.e_type != ET_DYN) {
    result.error = "an ELF file but not a shared object";
    return result;
  }
  if (kHostMachine >= 0 && eh.e_machine != kHostMachine) {
    result.error = "built for another CPU architecture (ELF machine " + std::to_string(eh.e_machine) + ")";
    return result;
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0) {
    result.error = "ELF file without section headers";
    return result;
  }

  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (!readAt(file, eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i])) {
      result.error = "truncated ELF section table";
      return result;
    }
  }

  for (const auto& sh : sections) {
    if (sh.sh_type != SHT_DYNSYM) continue;
    if (sh.sh_link >= sections.size()) {
      result.error = "corrupt ELF .dynsym link";
      return result;
    }
    const auto& strtab = sections[sh.sh_link];
    if (strtab.sh_offset > file.size() || strtab.sh_size > file.size() - strtab.sh_offset ||
        sh.sh_offset > file.size() || sh.sh_size > file.size() - sh.sh_offset) {
      result.error = "corrupt ELF .dynsym bounds";
      return result;
    }
    const char* names = file.data() + strtab.sh_offset;
    std::uint64_t count = sh.sh_size / sizeof(Elf64_Sym);
    for (std::uint64_t i = 0; i < count; ++i) {
      Elf64_Sym sym;
      if (!readAt(file, sh.sh_offset + i * sizeof(Elf64_Sym), sym)) break;
      unsigned bind = ELF64_ST_BIND(sym.st_info);
      if ((bind != STB_GLOBAL && bind != STB_WEAK) || sym.st_shndx == SHN_UNDEF ||
          ELF64_ST_VISIBILITY(sym.st_other) != STV_DEFAULT || sym.st_name >= strtab.sh_size)
        continue;
      const char* name = names + sym.st_name;
      const void* nul = std::memchr(name, '\0', strtab.sh_size - sym.st_name);
      if (!nul) continue;
      result.symbols.emplace(name, static_cast<const char*>(nul) - name);
    }
    return result;
  }
  result.error = "shared object without a dynamic symbol table";
  return result;
}

}  // namespace aev::plugins
