#include "moderation/prefilter.h"

namespace aev::moderation {

re2::RE2::Options Prefilter::options() {
  re2::RE2::Options o;
  o.set_max_mem(kPrefilterMaxMem);
  o.set_log_errors(false);
  return o;
}

std::shared_ptr<const Prefilter> Prefilter::build(const std::vector<std::shared_ptr<const CompiledRule>>& rules) {
  std::shared_ptr<Prefilter> p(new Prefilter());
  p->members_.assign(rules.size(), -1);
  for (std::size_t i = 0; i < rules.size(); ++i) {
    auto pattern = rules[i]->setPattern();
    if (!pattern) continue;
    std::string error;
    const int member = p->set_.Add(*pattern, &error);
    if (member < 0) continue;  // compiled alone, but not here: that rule scans on its own
    p->members_[i] = member;
    p->size_ = static_cast<std::size_t>(member) + 1;
  }
  if (p->size_ == 0 || !p->set_.Compile()) return nullptr;
  return p;
}

bool Prefilter::match(std::string_view text, std::vector<char>& possible) const {
  std::vector<int> members;
  re2::RE2::Set::ErrorInfo info;
  possible.assign(size_, 0);
  if (!set_.Match(re2::StringPiece(text.data(), text.size()), &members, &info) && info.kind != re2::RE2::Set::kNoError)
    return false;
  for (int m : members) possible[static_cast<std::size_t>(m)] = 1;
  return true;
}

}  // namespace aev::moderation
