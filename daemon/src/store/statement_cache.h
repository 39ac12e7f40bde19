#pragma once
// A small LRU map from SQL text to a prepared statement. Dynamic SQL (optional filters)
// makes a bounded number of variants; the bound keeps a pathological caller from
// growing a connection's prepared statements without limit.
#include <cstddef>
#include <functional>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace aev::store {

template <class Prepared>
class StatementCache {
 public:
  using Evict = std::function<void(Prepared&)>;
  StatementCache(std::size_t capacity, Evict evict) : capacity_(capacity ? capacity : 1), evict_(std::move(evict)) {}
  ~StatementCache() { clear(); }
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;

  // The cached statement for `key`, most recently used now; nullptr when absent.
  Prepared* find(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return &it->second->second;
  }

  Prepared& insert(const std::string& key, Prepared prepared) {
    if (index_.size() >= capacity_) {
      auto& victim = order_.back();
      evict_(victim.second);
      index_.erase(victim.first);
      order_.pop_back();
    }
    order_.emplace_front(key, std::move(prepared));
    index_[key] = order_.begin();
    return order_.front().second;
  }

  void clear() {
    for (auto& entry : order_) evict_(entry.second);
    order_.clear();
    index_.clear();
  }

  std::size_t size() const { return index_.size(); }

 private:
  using Entry = std::pair<std::string, Prepared>;
  std::size_t capacity_;
  Evict evict_;
  std::list<Entry> order_;
  std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
};

}  // namespace aev::store
