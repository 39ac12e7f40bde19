#include "events/submission.h"

#include <Poco/JSON/ParseHandler.h>
#include <Poco/JSON/Parser.h>

namespace aev::events {

void Submission::payloadIs(Poco::JSON::Object::Ptr parsed) {
  payload_ = std::move(parsed);
  built_ = true;
}

void Submission::payloadAt(const JsonView& view, std::uint32_t node) {
  view_ = &view;
  node_ = node;
}

const Poco::JSON::Object::Ptr& Submission::metadataObject() {
  if (flatMetadata) {
    metadata = flatMetadata->toObject();
    flatMetadata.reset();
  }
  return metadata;
}

const Poco::JSON::Object::Ptr& Submission::payload() {
  if (built_) return payload_;
  built_ = true;
  if (view_)
    payload_ = view_->toVar(node_).extract<Poco::JSON::Object::Ptr>();
  else if (payloadInTextOrder)
    payload_ = Poco::JSON::Parser(new Poco::JSON::ParseHandler(true))
                   .parse(event.payloadJson)
                   .extract<Poco::JSON::Object::Ptr>();
  else
    payload_ = Poco::JSON::Parser().parse(event.payloadJson).extract<Poco::JSON::Object::Ptr>();
  return payload_;
}

}  // namespace aev::events
